/* check_propagator: a user propagator on a fresh simple solver given the assertions, as the
 * suite's executor runs it (untrace/src/executor/propagator.rs). Mode enumerate: the final
 * callback blocks the assignment of the watched Boolean terms by a conflict, the decide
 * callback splits on the first term without a value; after unsat, the assignments blocked
 * must be the projections blocking clauses enumerate (an assignment only the propagator saw
 * must be inconsistent with the formula). Mode observe: after sat, the values `fixed`
 * reported and the (dis)equalities `eq`/`diseq` reported hold in the model, `created` reports
 * applications of the declared function only. The clauses Z3_solver_register_on_clause
 * reports are counted, not judged here. */
#include <string.h>

#define MBT_MAX_MODELS 16u
#define MBT_MAX_FINALS 32u
#define MBT_MAX_TRAIL 4096u
#define MBT_MAX_EXTRA 64u

typedef struct {
    Z3_context ctx;
    bool enumerate;
    unsigned k;
    const Z3_ast *terms;
    unsigned n_trail, n_scopes;
    int kind[MBT_MAX_TRAIL]; /* 0 fixed, 1 eq, 2 diseq */
    Z3_ast lhs[MBT_MAX_TRAIL], rhs[MBT_MAX_TRAIL];
    unsigned scopes[MBT_MAX_TRAIL];
    unsigned n_blocked, blocked[MBT_MAX_MODELS];
    unsigned finals, clauses;
    bool gave_up;
    Z3_func_decl declared;
    unsigned n_extra;
    Z3_ast extra[MBT_MAX_EXTRA];
    char problem[512];
} mbt_watch;

static bool mbt_registered(mbt_watch *w, Z3_ast t) {
    for (unsigned i = 0; i < w->k; i++)
        if (w->terms[i] == t) return true;
    for (unsigned i = 0; i < w->n_extra; i++)
        if (w->extra[i] == t) return true;
    return false;
}

static void mbt_problem(mbt_watch *w, const char *what, Z3_ast t) {
    if (w->problem[0] == 0)
        snprintf(w->problem, sizeof w->problem, "%s %s", what, Z3_ast_to_string(w->ctx, t));
}

static void mbt_event(mbt_watch *w, int kind, Z3_ast a, Z3_ast b) {
    if (w->n_trail == MBT_MAX_TRAIL) { w->gave_up = true; return; }
    Z3_inc_ref(w->ctx, a);
    Z3_inc_ref(w->ctx, b);
    w->kind[w->n_trail] = kind;
    w->lhs[w->n_trail] = a;
    w->rhs[w->n_trail] = b;
    w->n_trail++;
}

static void mbt_push(void *c, Z3_solver_callback cb) {
    mbt_watch *w = c;
    (void)cb;
    if (!w) return;
    if (w->n_scopes == MBT_MAX_TRAIL) { w->gave_up = true; return; }
    w->scopes[w->n_scopes++] = w->n_trail;
}

static void mbt_pop(void *c, Z3_solver_callback cb, unsigned n) {
    mbt_watch *w = c;
    (void)cb;
    if (!w) return;
    if (n > w->n_scopes) { w->gave_up = true; n = w->n_scopes; }
    w->n_scopes -= n;
    unsigned keep = w->n_scopes < MBT_MAX_TRAIL ? w->scopes[w->n_scopes] : 0;
    while (w->n_trail > keep) {
        w->n_trail--;
        Z3_dec_ref(w->ctx, w->lhs[w->n_trail]);
        Z3_dec_ref(w->ctx, w->rhs[w->n_trail]);
    }
}

static void *mbt_fresh(void *c, Z3_context new_ctx) {
    (void)c;
    (void)new_ctx;
    return NULL;
}

static void mbt_fixed(void *c, Z3_solver_callback cb, Z3_ast t, Z3_ast v) {
    mbt_watch *w = c;
    (void)cb;
    if (!w) return;
    if (!mbt_registered(w, t)) mbt_problem(w, "fixed reported a term not registered:", t);
    mbt_event(w, 0, t, v);
}

static void mbt_eq_event(mbt_watch *w, Z3_ast s, Z3_ast t, int kind) {
    if (!w) return;
    if (!mbt_registered(w, s)) mbt_problem(w, "eq/diseq reported a term not registered:", s);
    if (!mbt_registered(w, t)) mbt_problem(w, "eq/diseq reported a term not registered:", t);
    if (Z3_get_sort(w->ctx, s) != Z3_get_sort(w->ctx, t)) mbt_problem(w, "eq/diseq reported terms of two sorts:", s);
    mbt_event(w, kind, s, t);
}

static void mbt_eq(void *c, Z3_solver_callback cb, Z3_ast s, Z3_ast t) { (void)cb; mbt_eq_event(c, s, t, 1); }
static void mbt_diseq(void *c, Z3_solver_callback cb, Z3_ast s, Z3_ast t) { (void)cb; mbt_eq_event(c, s, t, 2); }

/* The values of the watched terms on the branch as a bit mask; false when one has none. */
static bool mbt_assignment(mbt_watch *w, unsigned *mask) {
    unsigned seen = 0, bits = 0;
    for (unsigned e = 0; e < w->n_trail; e++) {
        if (w->kind[e] != 0) continue;
        for (unsigned i = 0; i < w->k; i++) {
            if (w->terms[i] != w->lhs[e]) continue;
            Z3_lbool b = Z3_get_bool_value(w->ctx, w->rhs[e]);
            if (b == Z3_L_UNDEF) continue;
            seen |= 1u << i;
            bits = b == Z3_L_TRUE ? bits | 1u << i : bits & ~(1u << i);
        }
    }
    *mask = bits;
    return seen == (1u << w->k) - 1;
}

static void mbt_final(void *c, Z3_solver_callback cb) {
    mbt_watch *w = c;
    unsigned mask;
    if (!w) return;
    w->finals++;
    if (!w->enumerate || w->gave_up) return;
    if (w->finals > MBT_MAX_FINALS || w->n_blocked >= MBT_MAX_MODELS || !mbt_assignment(w, &mask)) {
        w->gave_up = true;
        return;
    }
    Z3_solver_propagate_consequence(w->ctx, cb, w->k, w->terms, 0, NULL, NULL, Z3_mk_false(w->ctx));
    w->blocked[w->n_blocked++] = mask;
}

static void mbt_decide(void *c, Z3_solver_callback cb, Z3_ast t, unsigned idx, bool phase) {
    mbt_watch *w = c;
    (void)idx;
    (void)phase;
    if (!w) return;
    unsigned mask, seen = 0;
    mbt_assignment(w, &mask);
    for (unsigned e = 0; e < w->n_trail; e++)
        for (unsigned i = 0; i < w->k; i++)
            if (w->kind[e] == 0 && w->terms[i] == w->lhs[e]) seen |= 1u << i;
    for (unsigned i = 0; i < w->k; i++) {
        if (seen & 1u << i || w->terms[i] == t) continue;
        Z3_solver_next_split(w->ctx, cb, w->terms[i], 0, w->finals % 2 == 0 ? Z3_L_TRUE : Z3_L_FALSE);
        return;
    }
}

static void mbt_created(void *c, Z3_solver_callback cb, Z3_ast t) {
    mbt_watch *w = c;
    if (!w) return;
    if (Z3_get_ast_kind(w->ctx, t) != Z3_APP_AST || !w->declared ||
        !Z3_is_eq_func_decl(w->ctx, Z3_get_app_decl(w->ctx, Z3_to_app(w->ctx, t)), w->declared)) {
        mbt_problem(w, "created reported no application of the declared function:", t);
        return;
    }
    Z3_solver_propagate_register_cb(w->ctx, cb, t);
    if (w->n_extra < MBT_MAX_EXTRA) {
        Z3_inc_ref(w->ctx, t);
        w->extra[w->n_extra++] = t;
    }
}

static bool mbt_binding(void *c, Z3_solver_callback cb, Z3_ast q, Z3_ast inst) {
    mbt_watch *w = c;
    (void)cb;
    (void)inst;
    if (w && Z3_get_ast_kind(w->ctx, q) != Z3_QUANTIFIER_AST) mbt_problem(w, "on_binding reported no quantifier:", q);
    return true;
}

static void mbt_clause(void *c, Z3_ast hint, unsigned n, unsigned const *deps, Z3_ast_vector lits) {
    mbt_watch *w = c;
    (void)hint;
    (void)n;
    (void)deps;
    (void)lits;
    if (w) w->clauses++;
}

static Z3_solver mbt_solver(Z3_context ctx, Z3_solver s, unsigned long rlimit) {
    Z3_params p = Z3_mk_params(ctx);
    Z3_params_inc_ref(ctx, p);
    Z3_params_set_uint(ctx, p, Z3_mk_string_symbol(ctx, "rlimit"), (unsigned)rlimit);
    Z3_solver_set_params(ctx, s, p);
    Z3_params_dec_ref(ctx, p);
    return s;
}

static Z3_solver mbt_reference(Z3_context ctx, const Z3_ast *as, unsigned n, unsigned long rlimit) {
    Z3_tactic t = Z3_mk_tactic(ctx, "smt");
    Z3_tactic_inc_ref(ctx, t);
    Z3_solver s = Z3_mk_solver_from_tactic(ctx, t);
    Z3_solver_inc_ref(ctx, s);
    Z3_tactic_dec_ref(ctx, t);
    mbt_solver(ctx, s, rlimit);
    for (unsigned i = 0; i < n; i++) Z3_solver_assert(ctx, s, as[i]);
    return s;
}

static Z3_ast mbt_literal(Z3_context ctx, Z3_ast t, bool value) { return value ? t : Z3_mk_not(ctx, t); }

/* Projections by blocking clauses: their number, or -1 (unknown, more than the bound). */
static int mbt_projections(Z3_context ctx, const Z3_ast *as, unsigned n, const Z3_ast *ts, unsigned k,
                           unsigned long rlimit, unsigned *found) {
    Z3_solver s = mbt_reference(ctx, as, n, rlimit);
    int count = 0;
    for (;;) {
        Z3_lbool r = Z3_solver_check(ctx, s);
        if (r == Z3_L_FALSE) break;
        if (r == Z3_L_UNDEF || count >= (int)MBT_MAX_MODELS) { count = -1; break; }
        Z3_model m = Z3_solver_get_model(ctx, s);
        Z3_model_inc_ref(ctx, m);
        unsigned mask = 0;
        Z3_ast lits[8] = {0};
        bool ok = true;
        for (unsigned i = 0; i < k; i++) {
            Z3_ast v;
            if (!Z3_model_eval(ctx, m, ts[i], true, &v)) { ok = false; break; }
            Z3_lbool value = Z3_get_bool_value(ctx, v);
            if (value == Z3_L_UNDEF) { ok = false; break; }
            if (value == Z3_L_TRUE) mask |= 1u << i;
            lits[i] = mbt_literal(ctx, ts[i], value != Z3_L_TRUE);
            Z3_inc_ref(ctx, lits[i]); /* a context with reference counts keeps no unreferenced term */
        }
        Z3_model_dec_ref(ctx, m);
        if (ok) {
            found[count++] = mask;
            Z3_solver_assert(ctx, s, Z3_mk_or(ctx, k, lits));
        }
        for (unsigned i = 0; i < k && (ok || lits[i]); i++) Z3_dec_ref(ctx, lits[i]);
        if (!ok) { count = -1; break; }
    }
    Z3_solver_dec_ref(ctx, s);
    return count;
}

static bool mbt_member(const unsigned *set, unsigned n, unsigned x) {
    for (unsigned i = 0; i < n; i++)
        if (set[i] == x) return true;
    return false;
}

static void mbt_propagate(Z3_context ctx, const Z3_ast *as, unsigned n, const Z3_ast *ts, unsigned k,
                          bool enumerate, unsigned long rlimit) {
    static mbt_watch w; /* outlives the solver; one check at a time */
    char message[1024];
    memset(&w, 0, sizeof w);
    w.ctx = ctx;
    w.enumerate = enumerate;
    w.k = k;
    w.terms = ts;
    Z3_solver s = Z3_mk_simple_solver(ctx);
    Z3_solver_inc_ref(ctx, s);
    mbt_solver(ctx, s, rlimit);
    Z3_params p = Z3_mk_params(ctx);
    Z3_params_inc_ref(ctx, p);
    Z3_params_set_uint(ctx, p, Z3_mk_string_symbol(ctx, "smt.relevancy"), 0);
    Z3_solver_set_params(ctx, s, p);
    Z3_params_dec_ref(ctx, p);
    for (unsigned i = 0; i < n; i++) Z3_solver_assert(ctx, s, as[i]);
    if (!enumerate) {
        Z3_sort domain[1] = {Z3_get_sort(ctx, ts[0])};
        w.declared = Z3_solver_propagate_declare(ctx, Z3_mk_string_symbol(ctx, "mbt_watched"), 1, domain, Z3_mk_bool_sort(ctx));
        Z3_ast app = Z3_mk_app(ctx, w.declared, 1, ts);
        Z3_inc_ref(ctx, app);
        Z3_ast fresh = Z3_mk_fresh_const(ctx, "mbt_watched", Z3_mk_bool_sort(ctx));
        Z3_inc_ref(ctx, fresh);
        Z3_solver_assert(ctx, s, Z3_mk_eq(ctx, fresh, app));
        Z3_dec_ref(ctx, fresh);
        Z3_dec_ref(ctx, app);
    }
    Z3_solver_propagate_init(ctx, s, &w, mbt_push, mbt_pop, mbt_fresh);
    Z3_solver_propagate_fixed(ctx, s, mbt_fixed);
    Z3_solver_propagate_final(ctx, s, mbt_final);
    if (enumerate) {
        Z3_solver_propagate_decide(ctx, s, mbt_decide);
    } else {
        Z3_solver_propagate_eq(ctx, s, mbt_eq);
        Z3_solver_propagate_diseq(ctx, s, mbt_diseq);
        Z3_solver_propagate_created(ctx, s, mbt_created);
        Z3_solver_propagate_on_binding(ctx, s, mbt_binding);
        Z3_solver_register_on_clause(ctx, s, &w, mbt_clause);
    }
    for (unsigned i = 0; i < k; i++) Z3_solver_propagate_register(ctx, s, ts[i]);
    Z3_lbool r = Z3_solver_check(ctx, s);
    check(ctx);
    if (w.problem[0]) {
        snprintf(message, sizeof message, "the user propagator's callbacks: %s", w.problem);
        fail(5, message);
    }
    if (!enumerate && r == Z3_L_TRUE) {
        Z3_model m = Z3_solver_get_model(ctx, s);
        Z3_model_inc_ref(ctx, m);
        for (unsigned e = 0; e < w.n_trail; e++) {
            Z3_ast a, b;
            if (!Z3_model_eval(ctx, m, w.lhs[e], true, &a)) continue;
            Z3_inc_ref(ctx, a);
            bool held;
            if (w.kind[e] == 0) {
                held = Z3_is_eq_ast(ctx, a, w.rhs[e]);
            } else {
                if (!Z3_model_eval(ctx, m, w.rhs[e], true, &b)) { Z3_dec_ref(ctx, a); continue; }
                held = Z3_is_eq_ast(ctx, a, b) == (w.kind[e] == 1);
            }
            bool values = Z3_get_bool_value(ctx, a) != Z3_L_UNDEF || Z3_is_numeral_ast(ctx, a);
            Z3_dec_ref(ctx, a);
            if (values && !held) {
                snprintf(message, sizeof message, "after sat: %s reported for %s is not what the model gives",
                         w.kind[e] == 0 ? "the value fixed" : "the (dis)equality", Z3_ast_to_string(ctx, w.lhs[e]));
                fail(5, message);
            }
        }
        Z3_model_dec_ref(ctx, m);
    }
    unsigned n_blocked = w.n_blocked, blocked[MBT_MAX_MODELS];
    memcpy(blocked, w.blocked, sizeof blocked);
    bool gave_up = w.gave_up;
    Z3_solver_dec_ref(ctx, s);
    while (w.n_trail > 0) {
        w.n_trail--;
        Z3_dec_ref(ctx, w.lhs[w.n_trail]);
        Z3_dec_ref(ctx, w.rhs[w.n_trail]);
    }
    for (unsigned i = 0; i < w.n_extra; i++) Z3_dec_ref(ctx, w.extra[i]);
    w.n_extra = 0;
    if (!enumerate || gave_up || r == Z3_L_UNDEF) return;
    if (r == Z3_L_TRUE) fail(5, "the solver answered sat although the user propagator blocked every assignment in its final callback");
    unsigned found[MBT_MAX_MODELS];
    int count = mbt_projections(ctx, as, n, ts, k, rlimit, found);
    if (count < 0) return;
    for (int i = 0; i < count; i++)
        if (!mbt_member(blocked, n_blocked, found[i]))
            fail(5, "blocking clauses find an assignment of the registered terms that the user propagator never saw before unsat");
    for (unsigned i = 0; i < n_blocked; i++) {
        if (mbt_member(found, (unsigned)count, blocked[i])) continue;
        Z3_solver ref = mbt_reference(ctx, as, n, rlimit);
        for (unsigned j = 0; j < k; j++) Z3_solver_assert(ctx, ref, mbt_literal(ctx, ts[j], blocked[i] >> j & 1u));
        Z3_lbool c = Z3_solver_check(ctx, ref);
        Z3_solver_dec_ref(ctx, ref);
        if (c == Z3_L_TRUE) fail(5, "an assignment the user propagator saw is consistent with the formula, but blocking clauses never found it");
    }
}

