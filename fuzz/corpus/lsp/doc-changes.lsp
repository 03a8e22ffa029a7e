Content-Length: 249

{"id": 1, "method": "textDocument/codeAction", "params": {"textDocument": {"uri": "file:///ompdp-fuzz/prog.c"}, "range": {"start": {"line": 4, "character": 31}, "end": {"line": 4, "character": 31}}, "context": {"diagnostics": []}}, "jsonrpc": "2.0"}Content-Length: 267

{"id": 2, "method": "textDocument/codeAction", "params": {"textDocument": {"uri": "file:///ompdp-fuzz/prog.c"}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 8, "character": 0}}, "context": {"diagnostics": [], "only": ["source"]}}, "jsonrpc": "2.0"}Content-Length: 267

{"id": 3, "method": "textDocument/codeAction", "params": {"textDocument": {"uri": "file:///ompdp-fuzz/prog.c"}, "range": {"start": {"line": 4, "character": 42}, "end": {"line": 4, "character": 42}}, "context": {"diagnostics": [], "triggerKind": 1}}, "jsonrpc": "2.0"}Content-Length: 167

{"id": 4, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///ompdp-fuzz/prog.c"}, "position": {"line": 4, "character": 31}}, "jsonrpc": "2.0"}Content-Length: 166

{"id": 5, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///ompdp-fuzz/prog.c"}, "position": {"line": 4, "character": 0}}, "jsonrpc": "2.0"}Content-Length: 166

{"id": 6, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///ompdp-fuzz/prog.c"}, "position": {"line": 7, "character": 3}}, "jsonrpc": "2.0"}Content-Length: 50

{"id": 90, "method": "shutdown", "jsonrpc": "2.0"}Content-Length: 36

{"method": "exit", "jsonrpc": "2.0"}