/* Preloaded into mbt by bench/z3-coverage.sh: turns _exit into exit.
 *
 * mbt's round workers end with _exit, so that the exit handlers they inherited from the
 * parent do not run twice. With a libz3 built with --coverage, that also skips the
 * destructor through which the library writes its line counts (.gcda files): every round's
 * coverage would be lost. exit runs it. Coverage runs only: the worker's other exit handlers
 * run too, which is harmless for a benchmark and wrong for a campaign. glibc's exit ends in
 * its own internal _exit, not in this one. */
#include <stdlib.h>

void _exit(int status) {
    exit(status);
}
