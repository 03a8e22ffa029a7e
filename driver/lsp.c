/*===- lsp.c - `ompdp lsp` --------------------------------------------------===*\
|*
|* `ompdp lsp [--report FILE]... [--source-root DIR]` is a language server
|* (LSP 3.17) on standard input and output: editors start it, and it shows
|* the findings of ompdp reports in the files they open, offers the
|* rewrites as code actions and explains them on hover (docs/lsp.md). This
|* file is the command: its flags, and the loop that reads framed messages
|* (lsp_io.c) and hands them to the server (lsp_server.c). While the client
|* is quiet the loop wakes every second so that a report written by a new
|* run is shown without waiting for the next keystroke.
|*
|* Standard output carries the protocol and nothing else; what the server
|* has to say about itself goes to standard error, which clients log.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "driver.h"
#include "lsp_io.h"
#include "lsp_server.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef OMPDP_VERSION_STRING
#define OMPDP_VERSION_STRING "unknown"
#endif

#define IDLE_MS 1000

static int send_stdout(void *ctx, const char *body, size_t len) {
  size_t n;
  char *msg = lsp_frame(body, len, &n);
  if (!msg)
    return -1;
  int rc = drv_write_all(STDOUT_FILENO, msg, n);
  free(msg);
  return rc;
}

/* Waits for input, calling the server's tick every IDLE_MS meanwhile. */
static void wait_input(lsp_reader_t *r, lsp_server_t *s) {
  if (r->pos < r->len)
    return; /* buffered bytes first */
  for (;;) {
    struct pollfd p = {.fd = r->fd, .events = POLLIN};
    int n = poll(&p, 1, IDLE_MS);
    if (n > 0 || (n < 0 && errno != EINTR))
      return;
    if (n == 0) {
      lsp_server_tick(s);
      if (lsp_server_done(s))
        return;
    }
  }
}

static void lsp_usage(FILE *out) {
  fputs("usage: ompdp lsp [--report FILE]... [--source-root DIR]\n"
        "\n"
        "A language server (LSP 3.17, JSON-RPC on standard input and output) that\n"
        "shows the findings of ompdp reports in the editor: a diagnostic at each\n"
        "finding's map item, its rewrite as a quick fix, and the details on hover.\n"
        "Editors start it; see docs/lsp.md for their settings.\n"
        "\n"
        "Reports come from --report, from the client's settings (\"reports\"), or,\n"
        "when neither names one, from the workspace: files named ompdp-report.json\n"
        "or *.ompdp.json in the workspace folder or in its build* subdirectories.\n"
        "Each is read again when its file changes.\n"
        "\n"
        "options:\n"
        "  --report FILE      a JSON report (ompdp run --format=json); repeatable\n"
        "  --source-root DIR  where relative source names of the reports are tried\n"
        "                     first (then the report's directory, the workspace)\n"
        "  --stdio            accepted and ignored (standard I/O is the only way)\n",
        out);
}

typedef struct lsp_args {
  drv_operands_t reports; /* --report FILE, each */
  const char *source_root;
} lsp_args_t;

/* --stdio (the only transport), --report FILE, --source-root DIR. */
static int lsp_flag(void *ctx, int argc, char **argv, int *i) {
  lsp_args_t *la = ctx;
  const char *v;
  int m;
  if (!strcmp(argv[*i], "--stdio"))
    return 1;
  if ((m = drv_flag_value(argc, argv, i, "report", &v)) > 0)
    drv_keep_operand(&la->reports, v);
  if (m)
    return m;
  if ((m = drv_flag_value(argc, argv, i, "source-root", &v)) > 0)
    la->source_root = v;
  return m;
}

int drv_lsp_main(int argc, char **argv) {
  lsp_args_t la = {.reports = {.v = calloc((size_t)argc, sizeof(char *))}};
  if (!la.reports.v) {
    drv_error("out of memory");
    return DRV_EXIT_FAILURE;
  }
  drv_args_t spec = {.command = "lsp", .usage = lsp_usage, .flag = lsp_flag, .ctx = &la};
  int prc = drv_parse_args(argc, argv, &spec);
  if (prc) {
    free(la.reports.v);
    return prc > 0 ? 0 : DRV_EXIT_USAGE;
  }
  const char **reports = (const char **)la.reports.v;
  size_t num_reports = la.reports.n;
  const char *source_root = la.source_root;
  /* A client that goes away is the end of the session, not a signal. */
  signal(SIGPIPE, SIG_IGN);

  lsp_server_options_t o = {
      .reports = reports,
      .num_reports = num_reports,
      .source_root = source_root,
      .read_client_paths = 1,
      .send = send_stdout,
      .version = OMPDP_VERSION_STRING,
      .log = stderr,
  };
  lsp_server_t *s = lsp_server_new(&o);
  if (!s) {
    drv_error("out of memory");
    free(reports);
    return DRV_EXIT_FAILURE;
  }
  lsp_reader_t r;
  lsp_reader_init_fd(&r, STDIN_FILENO);
  int rc = 0;
  while (!lsp_server_done(s)) {
    wait_input(&r, s);
    if (lsp_server_done(s))
      break;
    char *body, err[200];
    size_t len;
    lsp_read_status_t st = lsp_read(&r, &body, &len, err, sizeof(err));
    if (st == LSP_READ_MESSAGE) {
      lsp_server_handle(s, body, len);
      free(body);
    } else if (st == LSP_READ_BAD) {
      lsp_server_bad_frame(s, err);
    } else {
      if (st == LSP_READ_ERROR) {
        drv_error("cannot read the client's messages: %s", strerror(errno));
        rc = DRV_EXIT_FAILURE;
      }
      break; /* the client went away without "exit" */
    }
  }
  if (!rc)
    rc = lsp_server_exit_status(s);
  lsp_reader_free(&r);
  lsp_server_free(s);
  free(reports);
  return rc;
}
