/*===- spawnwait.c - the floor of any driver that outlives the program ---===*\
|*
|* `spawnwait PROG ARGS...` starts PROG with posix_spawn, waits for it and
|* exits with its status: what any tool that must outlive the program (to
|* build a report when the program is killed, as `ompdp run` does) cannot
|* avoid, one more process started and one more wait, and nothing else.
|* run.py's short runs put it beside `ompdp run`: the driver's cost above
|* it is ompdp's own (its run directory, the environment it sets, reading
|* and printing the report).
|*
\*===----------------------------------------------------------------------===*/
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>

extern char **environ;

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs("usage: spawnwait PROG [ARGS...]\n", stderr);
    return 2;
  }
  pid_t pid;
  int status;
  if (posix_spawn(&pid, argv[1], NULL, NULL, argv + 1, environ) != 0) {
    perror("spawnwait: posix_spawn");
    return 127;
  }
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      perror("spawnwait: waitpid");
      return 127;
    }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
