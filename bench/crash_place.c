/* Preloaded into `z3 -log` by bench/ddtrace-logs.sh (LD_PRELOAD): on a fatal signal, writes
 * where it struck, as `crash-place: SIGNAL OBJECT+0xOFFSET` (the object's file name and the
 * program counter's offset in it, as untrace's crash signatures name places), to stderr, then
 * dies of the signal as before. A line reducer's test compares that line with the input's,
 * so it keeps the crash at the same place, not any crash. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

static void on_fatal(int sig, siginfo_t *info, void *context) {
    (void)info;
    ucontext_t *uc = context;
    void *pc = (void *)uc->uc_mcontext.gregs[REG_RIP];
    Dl_info where;
    char line[512];
    int n;
    if (dladdr(pc, &where) && where.dli_fname) {
        const char *base = strrchr(where.dli_fname, '/');
        n = snprintf(line, sizeof line, "crash-place: %d %s+0x%lx\n", sig,
                     base ? base + 1 : where.dli_fname,
                     (unsigned long)((char *)pc - (char *)where.dli_fbase));
    } else {
        n = snprintf(line, sizeof line, "crash-place: %d ?+%p\n", sig, pc);
    }
    if (n > 0)
        (void)!write(2, line, (size_t)n);
    signal(sig, SIG_DFL);
    raise(sig);
}

__attribute__((constructor)) static void install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fatal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    int signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++)
        sigaction(signals[i], &action, NULL);
}
