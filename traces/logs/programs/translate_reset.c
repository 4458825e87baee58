/* Records a Z3 API log of the translate-reset segfault (traces/regress/translate-reset-segfault):
 * a solver copied by Z3_solver_translate, then reset, crashes at its next push on Z3 4.8.12.
 * Usage: translate_reset LOG */
#include <stdio.h>
#include <z3.h>

int main(int argc, char **argv) {
    if (argc != 2 || !Z3_open_log(argv[1])) {
        fprintf(stderr, "usage: %s LOG\n", argv[0]);
        return 2;
    }
    Z3_config cfg = Z3_mk_config();
    Z3_context ctx = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    Z3_sort int_sort = Z3_mk_int_sort(ctx);
    Z3_ast x = Z3_mk_const(ctx, Z3_mk_string_symbol(ctx, "x"), int_sort);
    Z3_inc_ref(ctx, x);
    Z3_ast args[2] = {x, Z3_mk_int(ctx, 1, int_sort)};
    Z3_ast sum = Z3_mk_add(ctx, 2, args);
    Z3_inc_ref(ctx, sum);
    Z3_solver s = Z3_mk_solver(ctx);
    Z3_solver_inc_ref(ctx, s);
    Z3_solver_assert(ctx, s, Z3_mk_gt(ctx, sum, x));
    Z3_solver copy = Z3_solver_translate(ctx, s, ctx);
    Z3_solver_inc_ref(ctx, copy);
    Z3_solver_reset(ctx, copy);
    Z3_solver_push(ctx, copy);
    printf("no crash\n");
    Z3_solver_dec_ref(ctx, copy);
    Z3_solver_dec_ref(ctx, s);
    Z3_dec_ref(ctx, sum);
    Z3_dec_ref(ctx, x);
    Z3_del_context(ctx);
    Z3_close_log();
    return 0;
}
