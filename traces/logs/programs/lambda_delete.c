/* Records a Z3 API log of a context that Z3 4.8.12 cannot delete: it holds a lambda made by
 * Z3_mk_lambda_const over a constant, and Z3_del_context hits UNREACHABLE at ast.cpp:432
 * (or a segmentation fault); Z3 5.4.1 deletes it. Usage: lambda_delete LOG */
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
    Z3_ast zero = Z3_mk_int(ctx, 0, int_sort);
    Z3_inc_ref(ctx, zero);
    Z3_ast body = Z3_mk_gt(ctx, x, zero);
    Z3_inc_ref(ctx, body);
    Z3_app bound = Z3_to_app(ctx, x);
    Z3_ast lambda = Z3_mk_lambda_const(ctx, 1, &bound, body);
    Z3_inc_ref(ctx, lambda);
    Z3_del_context(ctx);
    printf("no crash\n");
    Z3_close_log();
    return 0;
}
