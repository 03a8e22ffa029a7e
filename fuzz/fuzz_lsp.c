/*===- fuzz_lsp.c - libFuzzer target: the language server's messages -------===*\
|*
|* `ompdp lsp` reads whatever its client writes. Any bytes given to the
|* message reader (driver/lsp_io.c) and, message by message, to the server
|* (driver/lsp_server.c, lsp_findings.c, lsp_text.c) must give no crash,
|* leak, hang or undefined behaviour, and everything the server answers
|* must be one JSON-RPC 2.0 object.
|*
|* So that the fuzzer reaches more than the lifecycle, each input runs
|* against a server that already has a report (below: six findings in two
|* files, rewrites that apply, overlap and edit a file that is not there)
|* and the file it was built from open (UTF-8 with characters of 2, 3 and 4
|* bytes): the input's first byte picks the position encoding the client
|* offers, the rest is the client's byte stream. The corpus
|* (fuzz/corpus/lsp/) holds sessions that change the document, ask for
|* code actions and hovers, and break the protocol in the usual ways.
|*
\*===----------------------------------------------------------------------===*/
#include "lsp_io.h"
#include "lsp_server.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <inttypes.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file as compiled, and its report ("HASH_HASH_HASH_H" becomes its
 * XXH3, as the compiler records it). */
static const char doc_text[] =
    "// fuzz: caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80\n"
    "int main(void) {\n"
    "  static int a[64], c[64];\n"
    "  for (int it = 0; it < 4; ++it) {\n"
    "#pragma omp target map(tofrom: a) map(to: c)\n"
    "    a[it] += c[it];\n"
    "  }\n"
    "  return a[1];\n"
    "}\n";

static const char report_template[] =
    "{\"ompdp_report_version\":2,\"program\":{\"argv\":[\"./prog\"],\"exit_status\":0,\"wall_time_ns\":1000"
    "00},\"summary\":{\"duplicate_transfers\":1,\"round_trips\":1,\"repeated_allocs\":1,\"unused_allocs\""
    ":1,\"unused_transfers\":0,\"zero_transfers\":0,\"overbroad_maps\":1,\"time_saved_ns\":700,\"predict"
    "ed_speedup\":1.007},\"observed\":{\"transfers\":12,\"allocs\":8,\"deletes\":8,\"kernels\":4,\"bytes_tr"
    "ansferred\":12288,\"transfer_time_ns\":1341,\"hash_collisions\":0},\"partial\":false,\"warnings\":["
    "],\"findings\":[{\"kind\":\"round_trip\",\"count\":3,\"bytes\":768,\"time_ns\":2000,\"time_saved_ns\":20"
    "00,\"devices\":[0],\"file\":\"prog.c\",\"line\":5,\"column\":1,\"function\":\"main\",\"variable\":\"a\",\"cla"
    "use\":\"map(tofrom: a)\",\"suggestion\":\"keep it on the device\",\"related\":{\"file\":\"prog.c\",\"lin"
    "e\":5,\"column\":1,\"function\":\"main\"},\"region_id\":\"23e71b32633a058b\",\"item\":0,\"range\":{\"line\""
    ":5,\"column\":32,\"end_line\":5,\"end_column\":33,\"offset\":null,\"end_offset\":null},\"rewrites\":[{"
    "\"kind\":\"keep_resident\",\"description\":\"keep `a` on device 0 for the whole for loop at prog."
    "c:4: `#pragma omp target data map(to: a)` before it; it comes back with `map(always, from:"
    " a)`\",\"assumption\":\"no host code reaches `a` through another pointer\",\"time_saved_ns\":300,"
    "\"transfers_removed\":2,\"allocs_removed\":1,\"bytes_removed\":512,\"edits\":[{\"file\":\"prog.c\",\"li"
    "ne\":4,\"column\":1,\"end_line\":4,\"end_column\":6,\"offset\":null,\"end_offset\":null,\"original\":\"f"
    "or\",\"replacement\":\"  #pragma omp target data map(to: a)\\n  for\",\"file_hash\":\"HASH_HASH_HAS"
    "H_H\"},{\"file\":\"prog.c\",\"line\":5,\"column\":45,\"end_line\":6,\"end_column\":1,\"offset\":null,\"end"
    "_offset\":null,\"original\":\"\",\"replacement\":\" map(always, from: a)\\n\",\"file_hash\":\"HASH_HASH"
    "_HASH_H\"}]}]},{\"kind\":\"duplicate_transfer\",\"count\":3,\"bytes\":768,\"time_ns\":120,\"time_saved"
    "_ns\":120,\"devices\":[0],\"file\":\"prog.c\",\"line\":5,\"column\":1,\"function\":\"main\",\"variable\":\"c"
    "\",\"clause\":\"map(to: c)\",\"suggestion\":\"keep it on the device\",\"related\":{\"file\":\"prog.c\",\"l"
    "ine\":5,\"column\":1,\"function\":\"main\"},\"region_id\":\"23e71b32633a058b\",\"item\":0,\"range\":{\"lin"
    "e\":5,\"column\":43,\"end_line\":5,\"end_column\":44,\"offset\":null,\"end_offset\":null},\"rewrites\":"
    "[{\"kind\":\"keep_resident\",\"description\":\"keep `a` on device 0 for the whole for loop at pro"
    "g.c:4: `#pragma omp target data map(to: a)` before it; it comes back with `map(always, fro"
    "m: a)`\",\"assumption\":\"no host code reaches `a` through another pointer\",\"time_saved_ns\":30"
    "0,\"transfers_removed\":2,\"allocs_removed\":1,\"bytes_removed\":512,\"edits\":[{\"file\":\"prog.c\",\""
    "line\":4,\"column\":1,\"end_line\":4,\"end_column\":6,\"offset\":null,\"end_offset\":null,\"original\":"
    "\"for\",\"replacement\":\"  #pragma omp target data map(to: a)\\n  for\",\"file_hash\":\"HASH_HASH_H"
    "ASH_H\"},{\"file\":\"prog.c\",\"line\":5,\"column\":45,\"end_line\":6,\"end_column\":1,\"offset\":null,\"e"
    "nd_offset\":null,\"original\":\"\",\"replacement\":\" map(always, from: a)\\n\",\"file_hash\":\"HASH_HA"
    "SH_HASH_H\"}]},{\"kind\":\"change_map_type\",\"description\":\"map `c` with `alloc` instead of `to"
    "` at prog.c:5\",\"assumption\":null,\"time_saved_ns\":100,\"transfers_removed\":2,\"allocs_removed"
    "\":1,\"bytes_removed\":512,\"edits\":[{\"file\":\"prog.c\",\"line\":5,\"column\":39,\"end_line\":5,\"end_c"
    "olumn\":41,\"offset\":null,\"end_offset\":null,\"original\":\"to\",\"replacement\":\"alloc\",\"file_hash"
    "\":\"HASH_HASH_HASH_H\"}]}]},{\"kind\":\"overbroad_map\",\"count\":3,\"bytes\":768,\"time_ns\":200,\"tim"
    "e_saved_ns\":200,\"devices\":[0],\"file\":\"prog.c\",\"line\":5,\"column\":1,\"function\":\"main\",\"varia"
    "ble\":\"a\",\"clause\":\"map(tofrom: a)\",\"suggestion\":\"keep it on the device\",\"related\":{\"file\":"
    "\"prog.c\",\"line\":5,\"column\":1,\"function\":\"main\"},\"region_id\":\"23e71b32633a058b\",\"item\":0,\"r"
    "ange\":{\"line\":5,\"column\":32,\"end_line\":5,\"end_column\":33,\"offset\":null,\"end_offset\":null},"
    "\"rewrites\":[{\"kind\":\"change_map_type\",\"description\":\"map `a` with `to` instead of `tofrom`"
    " at prog.c:5: the region only reads it\",\"assumption\":null,\"time_saved_ns\":200,\"transfers_r"
    "emoved\":2,\"allocs_removed\":1,\"bytes_removed\":512,\"edits\":[{\"file\":\"prog.c\",\"line\":5,\"colum"
    "n\":24,\"end_line\":5,\"end_column\":30,\"offset\":null,\"end_offset\":null,\"original\":\"tofrom\",\"re"
    "placement\":\"to\",\"file_hash\":\"HASH_HASH_HASH_H\"}]}]},{\"kind\":\"repeated_alloc\",\"count\":3,\"by"
    "tes\":768,\"time_ns\":50,\"time_saved_ns\":50,\"devices\":[0],\"file\":\"prog.c\",\"line\":5,\"column\":1"
    ",\"function\":\"main\",\"variable\":\"a\",\"clause\":\"map(tofrom: a)\",\"suggestion\":\"keep it on the d"
    "evice\",\"related\":{\"file\":\"prog.c\",\"line\":5,\"column\":1,\"function\":\"main\"},\"region_id\":\"23e7"
    "1b32633a058b\",\"item\":0,\"range\":{\"line\":5,\"column\":32,\"end_line\":5,\"end_column\":33,\"offset\""
    ":null,\"end_offset\":null},\"rewrites\":[{\"kind\":\"remove_item\",\"description\":\"remove `a` from "
    "`target` at prog.c:5\",\"assumption\":null,\"time_saved_ns\":50,\"transfers_removed\":2,\"allocs_r"
    "emoved\":1,\"bytes_removed\":512,\"edits\":[{\"file\":\"prog.c\",\"line\":5,\"column\":20,\"end_line\":5,"
    "\"end_column\":34,\"offset\":null,\"end_offset\":null,\"original\":\"map(tofrom: a)\",\"replacement\":"
    "\"\",\"file_hash\":\"HASH_HASH_HASH_H\"}]}]},{\"kind\":\"unused_alloc\",\"count\":3,\"bytes\":768,\"time_"
    "ns\":5,\"time_saved_ns\":5,\"devices\":[0],\"file\":\"prog.c\",\"line\":8,\"column\":1,\"function\":\"main"
    "\",\"variable\":null,\"clause\":null,\"suggestion\":\"keep it on the device\",\"related\":{\"file\":\"ot"
    "her.c\",\"line\":2,\"column\":1,\"function\":\"main\"},\"region_id\":\"23e71b32633a058b\",\"item\":0,\"ran"
    "ge\":null,\"rewrites\":[]},{\"kind\":\"unused_transfer\",\"count\":3,\"bytes\":768,\"time_ns\":20,\"time"
    "_saved_ns\":20,\"devices\":[0],\"file\":\"lib.c\",\"line\":3,\"column\":1,\"function\":\"main\",\"variable"
    "\":\"x\",\"clause\":\"map(to: x)\",\"suggestion\":\"keep it on the device\",\"related\":null,\"region_id"
    "\":\"23e71b32633a058b\",\"item\":0,\"range\":{\"line\":3,\"column\":9,\"end_line\":3,\"end_column\":10,\"o"
    "ffset\":null,\"end_offset\":null},\"rewrites\":[{\"kind\":\"remove_item\",\"description\":\"remove `x`"
    " from `target update` at lib.c:3\",\"assumption\":null,\"time_saved_ns\":20,\"transfers_removed\""
    ":2,\"allocs_removed\":1,\"bytes_removed\":512,\"edits\":[{\"file\":\"lib.c\",\"line\":3,\"column\":1,\"en"
    "d_line\":3,\"end_column\":10,\"offset\":null,\"end_offset\":null,\"original\":\"#pragma\",\"replacemen"
    "t\":\"\",\"file_hash\":\"HASH_HASH_HASH_H\"}]}]}]}";

static int check_reply(void *ctx, const char *body, size_t len) {
  json_error_t e;
  json_t *m = json_loadb(body, len, 0, &e);
  if (!json_is_object(m))
    __builtin_trap(); /* the server wrote something that is not a message */
  json_t *v = json_object_get(m, "jsonrpc");
  if (!json_is_string(v) || strcmp(json_string_value(v), "2.0"))
    __builtin_trap();
  json_decref(m);
  return 0;
}

static void send_text(lsp_server_t *s, const char *text) {
  lsp_server_handle(s, text, strlen(text));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char *report;
  static size_t report_len;
  if (!report) {
    report_len = strlen(report_template);
    report = malloc(report_len + 1);
    memcpy(report, report_template, report_len + 1);
    char hash[17];
    snprintf(hash, sizeof(hash), "%016" PRIx64, (uint64_t)XXH3_64bits(doc_text, strlen(doc_text)));
    for (char *p = report; (p = strstr(p, "HASH_HASH_HASH_H")); p += 16)
      memcpy(p, hash, 16);
  }
  lsp_server_options_t o = {.read_client_paths = 0, .send = check_reply, .version = "fuzz"};
  lsp_server_t *s = lsp_server_new(&o);
  if (!s)
    return 0;
  char err[512];
  if (lsp_server_add_report_text(s, report, report_len, "/ompdp-fuzz", err, sizeof(err)))
    __builtin_trap(); /* the report above is valid */

  static const char *const encodings[] = {"[]", "[\"utf-8\",\"utf-16\"]", "[\"utf-32\"]"};
  char init[512];
  snprintf(init, sizeof(init),
       "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"rootUri\":"
       "\"file:///ompdp-fuzz\",\"capabilities\":{\"general\":{\"positionEncodings\":%s},"
       "\"textDocument\":{\"hover\":{\"contentFormat\":[\"markdown\"]},\"codeAction\":{"
       "\"disabledSupport\":%s}},\"workspace\":{\"workspaceEdit\":{\"documentChanges\":%s}}}}}",
           encodings[size ? data[0] % 3 : 0], size && (data[0] & 4) ? "true" : "false",
           size && (data[0] & 8) ? "true" : "false");
  send_text(s, init);
  send_text(s, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
  json_t *open = json_pack("{s:s,s:s,s:{s:{s:s,s:s,s:i,s:s}}}", "jsonrpc", "2.0", "method",
                       "textDocument/didOpen", "params", "textDocument", "uri",
                       "file:///ompdp-fuzz/prog.c", "languageId", "c", "version", 1, "text",
                           doc_text);
  char *open_text = json_dumps(open, JSON_COMPACT);
  send_text(s, open_text);
  free(open_text);
  json_decref(open);

  lsp_reader_t r;
  lsp_reader_init_mem(&r, (const char *)data + (size ? 1 : 0), size ? size - 1 : 0);
  for (int n = 0; n < 10000 && !lsp_server_done(s); ++n) {
    char *body;
    size_t len;
    lsp_read_status_t st = lsp_read(&r, &body, &len, err, sizeof(err));
    if (st == LSP_READ_MESSAGE) {
      lsp_server_handle(s, body, len);
      free(body);
    } else if (st == LSP_READ_BAD) {
      if (!err[0] || strchr(err, '\n'))
        __builtin_trap(); /* a framing error has a one-line reason */
      lsp_server_bad_frame(s, err);
    } else {
      break;
    }
  }
  lsp_reader_free(&r);
  lsp_server_free(s);
  return 0;
}
