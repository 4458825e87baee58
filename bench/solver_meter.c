/* The solver binary bench/murxla.sh gives Murxla's `--smt2 BINARY` (which passes no
 * arguments): runs METER_SOLVER -in with this process's standard input forwarded through a
 * pipe, appends a line `check-sat` to METER_LOG for every `(check-sat` command sent (at
 * once: Murxla kills the solver of a run at its time limit), and `exit USER SYSTEM CODE`
 * (the solver's CPU seconds and exit code, 128 + signal when a signal ended it) when the
 * solver ends.
 *
 * Why: Murxla's statistics do not say how many check-sats reached the solver, and the
 * solver processes it kills escape `time -v` of Murxla (the script measures CPU in a cgroup
 * where it can, these lines are the fallback). The solver dies with this process
 * (PR_SET_PDEATHSIG), so a run Murxla kills leaves nothing running.
 *
 * Build: cc -O2 -o solver_meter bench/solver_meter.c */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static const char needle[] = "(check-sat";

int main(void) {
  const char *solver = getenv("METER_SOLVER");
  const char *log = getenv("METER_LOG");
  if (!solver || !log) {
    fprintf(stderr, "solver_meter: METER_SOLVER and METER_LOG must be set\n");
    return 2;
  }
  int to_solver[2];
  if (pipe(to_solver) != 0) {
    perror("solver_meter: pipe");
    return 2;
  }
  pid_t child = fork();
  if (child < 0) {
    perror("solver_meter: fork");
    return 2;
  }
  if (child == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    dup2(to_solver[0], 0);
    close(to_solver[0]);
    close(to_solver[1]);
    execl(solver, solver, "-in", (char *)NULL);
    perror("solver_meter: exec");
    _exit(127);
  }
  close(to_solver[0]);
  signal(SIGPIPE, SIG_IGN);

  /* Forward stdin, counting the needle also across buffer boundaries. */
  int fd = open(log, O_WRONLY | O_APPEND | O_CREAT, 0600);
  if (fd < 0) {
    perror("solver_meter: log");
    return 2;
  }
  char buf[1 << 16];
  size_t matched = 0; /* bytes of the needle matched so far */
  int open_pipe = 1;
  for (;;) {
    ssize_t n = read(0, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    for (ssize_t i = 0; i < n; i++) {
      if (buf[i] == needle[matched]) {
        if (++matched == sizeof needle - 1) {
          /* One short write to an O_APPEND file: lines of parallel solvers never mix. */
          if (write(fd, "check-sat\n", 10) != 10)
            perror("solver_meter: log");
          matched = 0;
        }
      } else {
        matched = buf[i] == needle[0] ? 1 : 0;
      }
    }
    for (ssize_t off = 0; open_pipe && off < n;) {
      ssize_t w = write(to_solver[1], buf + off, (size_t)(n - off));
      if (w < 0 && errno == EINTR)
        continue;
      if (w < 0) {
        open_pipe = 0; /* the solver is gone; keep counting what is sent */
        break;
      }
      off += w;
    }
  }
  close(to_solver[1]);

  int status = 0;
  struct rusage usage;
  while (wait4(child, &status, 0, &usage) < 0) {
    if (errno != EINTR)
      return 2;
  }
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  char line[128];
  int len = snprintf(line, sizeof line, "exit %ld.%06ld %ld.%06ld %d\n",
                     (long)usage.ru_utime.tv_sec, (long)usage.ru_utime.tv_usec,
                     (long)usage.ru_stime.tv_sec, (long)usage.ru_stime.tv_usec, code);
  if (write(fd, line, (size_t)len) != len)
    perror("solver_meter: log");
  close(fd);
  return code;
}
