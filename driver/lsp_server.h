/*===- lsp_server.h - the ompdp language server ---------------*- C -*-===*\
|*
|* The server behind `ompdp lsp` (driver/lsp.c), apart from its input and
|* output so that the fuzzer (fuzz/fuzz_lsp.c) can drive it: it is handed
|* one message body at a time and answers through a callback. It shows the
|* findings of ompdp reports in the documents the editor opens, offers
|* their rewrites as code actions and explains them on hover; docs/lsp.md
|* says what it does for a user.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_LSP_SERVER_H
#define OMPDP_LSP_SERVER_H

#include <stddef.h>
#include <stdio.h>

typedef struct lsp_server lsp_server_t;

typedef struct lsp_server_options {
  /* Reports given on the command line (read relative to the current
   * directory), and the directory relative source names are tried in
   * first (NULL: none). */
  const char *const *reports;
  size_t num_reports;
  const char *source_root;
  /* 0: reports named by the client, or found in its workspace, are not
   * read (the fuzzer's server reads only what it is given). */
  int read_client_paths;
  /* Where each message the server sends goes (a JSON body, unframed).
   * Returns 0, or -1 when the client is gone (the server then stops). */
  int (*send)(void *ctx, const char *body, size_t len);
  void *send_ctx;
  const char *version; /* serverInfo.version */
  FILE *log;           /* "ompdp: " lines about the server itself; NULL: none */
} lsp_server_options_t;

/* NULL when out of memory. */
lsp_server_t *lsp_server_new(const lsp_server_options_t *o);
void lsp_server_free(lsp_server_t *s);

/* Adds a report from memory as if read from a file in base_dir (the
 * fuzzer's). 0, or -1 with the reader's reason in err. */
int lsp_server_add_report_text(lsp_server_t *s, const char *json, size_t len,
                               const char *base_dir, char *err, size_t errlen);

/* Handles one message body (any bytes). */
void lsp_server_handle(lsp_server_t *s, const char *body, size_t len);
/* Answers a message the reader could not frame (a parse error, id null). */
void lsp_server_bad_frame(lsp_server_t *s, const char *why);
/* Looks at the report files again (called while the client is quiet):
 * reports that changed are read again and the diagnostics published. */
void lsp_server_tick(lsp_server_t *s);

/* 1 once the client said "exit" or went away (a send failed). */
int lsp_server_done(const lsp_server_t *s);
/* The exit status: 0 when shutdown came before exit (or before the end
 * of the input), 1 otherwise. */
int lsp_server_exit_status(const lsp_server_t *s);

#endif /* OMPDP_LSP_SERVER_H */
