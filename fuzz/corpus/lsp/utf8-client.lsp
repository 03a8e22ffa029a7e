Content-Length: 256

{"method": "textDocument/didChange", "params": {"textDocument": {"uri": "file:///ompdp-fuzz/prog.c", "version": 2}, "contentChanges": [{"range": {"start": {"line": 0, "character": 13}, "end": {"line": 0, "character": 14}}, "text": "e"}]}, "jsonrpc": "2.0"}Content-Length: 273

{"method": "textDocument/didChange", "params": {"textDocument": {"uri": "file:///ompdp-fuzz/prog.c", "version": 3}, "contentChanges": [{"range": {"start": {"line": 0, "character": 16}, "end": {"line": 0, "character": 17}}, "text": "\u00e9\ud83d\ude00"}]}, "jsonrpc": "2.0"}Content-Length: 167

{"id": 1, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///ompdp-fuzz/prog.c"}, "position": {"line": 0, "character": 17}}, "jsonrpc": "2.0"}Content-Length: 257

{"method": "textDocument/didChange", "params": {"textDocument": {"uri": "file:///ompdp-fuzz/prog.c", "version": 4}, "contentChanges": [{"range": {"start": {"line": 0, "character": 200}, "end": {"line": 99, "character": 0}}, "text": "x"}]}, "jsonrpc": "2.0"}Content-Length: 50

{"id": 90, "method": "shutdown", "jsonrpc": "2.0"}Content-Length: 36

{"method": "exit", "jsonrpc": "2.0"}