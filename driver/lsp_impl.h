/*===- lsp_impl.h - what the two halves of the server share ---*- C -*-===*\
|*
|* The language server is two files: lsp_server.c keeps the session (the
|* protocol's lifecycle, the client's settings, the reports and when they
|* change, the open documents and their edits) and lsp_findings.c turns
|* findings into what the editor shows (diagnostics, code actions, hover),
|* placing them in the documents and asking the fix planner
|* (report/fix_plan.h) which rewrites can still be applied.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_LSP_IMPL_H
#define OMPDP_LSP_IMPL_H

#include "fix_plan.h"
#include "lsp_io.h"
#include "lsp_server.h"
#include "lsp_text.h"
#include "report.h"

#include <jansson.h>
#include <stdint.h>
#include <sys/stat.h>

typedef enum lsp_origin {
  LSP_FROM_COMMAND_LINE,
  LSP_FROM_SETTINGS,
  LSP_FROM_WORKSPACE, /* found by the discovery rule (docs/lsp.md) */
  LSP_FROM_MEMORY,    /* lsp_server_add_report_text */
} lsp_origin_t;

/* One report and what became of reading it. Every file name in rep (of
 * findings, related locations and edits) is made absolute when it is
 * read, so the rest of the server compares paths. */
typedef struct lsp_report {
  char *path; /* absolute; NULL for one from memory */
  char *base; /* the directory relative names are tried in after source_root */
  lsp_origin_t origin;
  int listed;          /* still named by its origin (settings and discovery change) */
  int exists;          /* the file was there when last looked at */
  int said_missing;    /* that it is not there was said */
  struct stat st;      /* and was this one */
  int loaded;          /* rep holds it */
  char *error;         /* why the last reading failed (said once) */
  ompdp_report_t rep;
} lsp_report_t;

/* One finding placed in an open document: byte spans of its text that move
 * with the user's edits. The finding is dropped when an edit touches its
 * item or one of its rewrites' edits (the code it describes changed). */
typedef struct lsp_anchor {
  const lsp_report_t *report;
  const ompdp_finding_t *f;
  lsp_span_t item;
  int has_related; /* its related location is in this document */
  lsp_span_t related;
  lsp_span_t *edits; /* the edits of its rewrites that are in this document */
  size_t num_edits;
} lsp_anchor_t;

typedef struct lsp_doc {
  char *uri;  /* as the client wrote it */
  char *path; /* the file it names, made canonical; NULL: not a file: URI */
  int64_t version;
  lsp_text_t text;
  lsp_anchor_t *anchors;
  size_t num_anchors;
  /* Reports whose findings in this file are not shown, because the file
   * is not the one their program was built from: one note each. */
  char **notes;
  size_t num_notes;
  int edited;           /* changed since its findings were placed */
  int64_t refusal_said; /* the version whose refused fix was last said (-1: none) */
} lsp_doc_t;

/* A file as the planner sees it in one planning: an open document's text
 * as the editor has it, or the file on disk. */
typedef struct lsp_file {
  char *path;
  lsp_doc_t *doc;  /* NULL: read from disk into own */
  char *own;
  lsp_text_t disk; /* positions in a file from disk */
  ompdp_fix_file_t ff;
  char *mismatch;  /* why it does not match the report (the planner found) */
  int unreadable;
} lsp_file_t;

/* One planning of every loaded finding against the files as they are now. */
typedef struct lsp_plan {
  lsp_server_t *s;
  const ompdp_finding_t **findings;
  size_t num_findings;
  ompdp_fix_plan_t plan;
  lsp_file_t **files;
  size_t num_files;
} lsp_plan_t;

enum { LSP_STATE_NEW, LSP_STATE_RUNNING, LSP_STATE_SHUTDOWN };

struct lsp_server {
  lsp_server_options_t o;
  int state;
  int done;
  int exit_status;
  /* What the client said at initialize. */
  lsp_encoding_t enc;
  int markdown;          /* hover can be Markdown */
  int disabled_actions;  /* codeAction.disabledSupport */
  int document_changes;  /* workspaceEdit.documentChanges */
  int watch_files;       /* didChangeWatchedFiles.dynamicRegistration */
  char **roots;          /* workspace folders, as paths */
  size_t num_roots;
  /* Settings (initializationOptions, didChangeConfiguration). */
  char *source_root;
  char **setting_reports;
  size_t num_setting_reports;
  int discover; /* look for reports in the workspace (docs/lsp.md) */
  lsp_report_t **reports;
  size_t num_reports;
  lsp_doc_t **docs;
  size_t num_docs;
  int64_t next_id;   /* of requests the server sends */
  int64_t last_scan; /* when discovery last ran (ms, monotonic) */
};

/*--- lsp_server.c -----------------------------------------------------------*/

/* Sends msg (reference stolen). */
void lsp_send(lsp_server_t *s, json_t *msg);
void lsp_notify(lsp_server_t *s, const char *method, json_t *params);
/* window/showMessage; type 1 error, 2 warning, 3 info. */
void lsp_show(lsp_server_t *s, int type, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "file://" URI of an absolute path (malloc'd), and the path of a file:
 * URI (malloc'd, NULL for other schemes or a malformed one). */
char *lsp_uri_from_path(const char *path);
char *lsp_path_from_uri(const char *uri);
/* The URI the client knows a path by: an open document's, else its own. */
char *lsp_uri_for(lsp_server_t *s, const char *path);
lsp_doc_t *lsp_doc_by_path(lsp_server_t *s, const char *path);
/* The directory part of a path, malloc'd. */
char *lsp_dirname(const char *path);

/*--- lsp_findings.c ----------------------------------------------------------*/

/* Places the findings of every report in doc, from scratch. 0, or -1 when
 * out of memory. */
int lsp_place(lsp_server_t *s, lsp_doc_t *doc);
void lsp_doc_clear(lsp_doc_t *doc);
/* Moves doc's findings over a change of [cs, ce) to n bytes (before the
 * text itself changes), dropping those it touched. */
void lsp_move(lsp_doc_t *doc, size_t cs, size_t ce, size_t n);
/* 1 when doc's text is again a file some report was built from (an edit
 * was undone): its findings are then placed again. */
int lsp_matches_again(lsp_server_t *s, lsp_doc_t *doc);
/* textDocument/publishDiagnostics for doc. */
void lsp_publish(lsp_server_t *s, lsp_doc_t *doc);
/* The results of textDocument/codeAction and textDocument/hover (new
 * references), or NULL with an error code and message for the client. */
json_t *lsp_code_actions(lsp_server_t *s, lsp_doc_t *doc, json_t *params, int *code,
                         char *err, size_t errlen);
json_t *lsp_hover(lsp_server_t *s, lsp_doc_t *doc, json_t *params, int *code, char *err,
                  size_t errlen);

#endif /* OMPDP_LSP_IMPL_H */
