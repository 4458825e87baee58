# check_propagator: a user propagator on a fresh simple solver given the assertions, as the
# suite's executor runs it (untrace/src/executor/propagator.rs), on z3core's callback types.
# Mode enumerate: the final callback blocks the assignment of the watched Boolean terms by a
# conflict, the decide callback splits on the first term without a value; after unsat, the
# assignments blocked must be the projections blocking clauses enumerate (an assignment only
# the propagator saw must be inconsistent with the formula). Mode observe: after sat, the
# values `fixed` reported and the (dis)equalities `eq`/`diseq` reported hold in the model,
# `created` reports applications of the declared function only. The clauses
# Z3_solver_register_on_clause reports are counted, not judged here.
MBT_MAX_MODELS = 16
MBT_MAX_FINALS = 32


def mbt_ast(pointer):
    """An AST the callbacks got as an address, as z3core passes ASTs (its value set)."""
    ast = Ast(pointer)
    ctypes.c_void_p.__init__(ast, pointer)
    return ast


class MbtWatch:
    def __init__(self, ctx, terms, enumerate):
        self.ctx, self.terms, self.enumerate = ctx, [t.value for t in terms], enumerate
        self.term_objects = list(terms)
        self.trail, self.scopes, self.blocked, self.extra = [], [], [], []
        self.finals, self.clauses, self.gave_up = 0, 0, False
        self.declared, self.problem = None, None

    def registered(self, t):
        return t in self.terms or t in self.extra

    def note_problem(self, what, t):
        if self.problem is None:
            self.problem = "%s %s" % (what, Z3_ast_to_string(self.ctx, mbt_ast(t)))

    def event(self, kind, a, b):
        Z3_inc_ref(self.ctx, mbt_ast(a))
        Z3_inc_ref(self.ctx, mbt_ast(b))
        self.trail.append((kind, a, b))

    def assignment(self):
        values = {}
        for kind, t, v in self.trail:
            if kind == 0 and t in self.terms:
                b = Z3_get_bool_value(self.ctx, mbt_ast(v))
                if b != Z3_L_UNDEF:
                    values[self.terms.index(t)] = b == Z3_L_TRUE
        return values


mbt_watch = None


def mbt_guard(body):
    def run(*args):
        try:
            return body(*args)
        except BaseException as e:  # nothing may unwind into Z3
            if mbt_watch is not None and mbt_watch.problem is None:
                mbt_watch.problem = "a callback raised %r" % (e,)
    return run


@mbt_guard
def mbt_push(c, cb):
    mbt_watch.scopes.append(len(mbt_watch.trail))


@mbt_guard
def mbt_pop(c, cb, n):
    w = mbt_watch
    n = min(n, len(w.scopes))
    if n == 0:
        return
    keep = w.scopes[len(w.scopes) - n]
    del w.scopes[len(w.scopes) - n:]
    while len(w.trail) > keep:
        _, a, b = w.trail.pop()
        Z3_dec_ref(w.ctx, mbt_ast(a))
        Z3_dec_ref(w.ctx, mbt_ast(b))


def mbt_fresh(c, new_ctx):
    return None


@mbt_guard
def mbt_fixed(c, cb, t, v):
    if not mbt_watch.registered(t):
        mbt_watch.note_problem("fixed reported a term not registered:", t)
    mbt_watch.event(0, t, v)


def mbt_eq_event(s, t, kind):
    w = mbt_watch
    for u in (s, t):
        if not w.registered(u):
            w.note_problem("eq/diseq reported a term not registered:", u)
    if not Z3_is_eq_sort(w.ctx, Z3_get_sort(w.ctx, mbt_ast(s)), Z3_get_sort(w.ctx, mbt_ast(t))):
        w.note_problem("eq/diseq reported terms of two sorts:", s)
    w.event(kind, s, t)


@mbt_guard
def mbt_eq(c, cb, s, t):
    mbt_eq_event(s, t, 1)


@mbt_guard
def mbt_diseq(c, cb, s, t):
    mbt_eq_event(s, t, 2)


@mbt_guard
def mbt_final(c, cb):
    w = mbt_watch
    w.finals += 1
    if not w.enumerate or w.gave_up:
        return
    values = w.assignment()
    if w.finals > MBT_MAX_FINALS or len(w.blocked) >= MBT_MAX_MODELS or len(values) < len(w.terms):
        w.gave_up = True
        return
    fixed = (Ast * len(w.terms))(*w.term_objects)
    Z3_solver_propagate_consequence(w.ctx, ctypes.c_void_p(cb), len(w.terms), fixed, 0, None, None, Z3_mk_false(w.ctx))
    w.blocked.append(tuple(values[i] for i in range(len(w.terms))))


@mbt_guard
def mbt_decide(c, cb, t, idx, phase):
    w = mbt_watch
    seen = {u for kind, u, _ in w.trail if kind == 0}
    for u in w.terms:
        if u not in seen and u != t:
            Z3_solver_next_split(w.ctx, ctypes.c_void_p(cb), mbt_ast(u), 0, Z3_L_TRUE if w.finals % 2 == 0 else Z3_L_FALSE)
            return


@mbt_guard
def mbt_created(c, cb, t):
    w = mbt_watch
    ours = (Z3_get_ast_kind(w.ctx, mbt_ast(t)) == Z3_APP_AST and w.declared is not None and
            Z3_is_eq_func_decl(w.ctx, Z3_get_app_decl(w.ctx, Z3_to_app(w.ctx, mbt_ast(t))), w.declared))
    if not ours:
        w.note_problem("created reported no application of the declared function:", t)
        return
    Z3_solver_propagate_register_cb(w.ctx, ctypes.c_void_p(cb), mbt_ast(t))
    Z3_inc_ref(w.ctx, mbt_ast(t))
    w.extra.append(t)


def mbt_binding(c, cb, q, inst):
    try:
        if Z3_get_ast_kind(mbt_watch.ctx, mbt_ast(q)) != Z3_QUANTIFIER_AST:
            mbt_watch.note_problem("on_binding reported no quantifier:", q)
    except BaseException:
        pass
    return True


@mbt_guard
def mbt_clause(c, hint, n, deps, lits):
    mbt_watch.clauses += 1


# The callbacks as C functions, alive as long as the script.
MBT_CALLBACKS = (Z3_push_eh(mbt_push), Z3_pop_eh(mbt_pop), Z3_fresh_eh(mbt_fresh),
                 Z3_fixed_eh(mbt_fixed), Z3_final_eh(mbt_final), Z3_decide_eh(mbt_decide),
                 Z3_eq_eh(mbt_eq), Z3_eq_eh(mbt_diseq), Z3_created_eh(mbt_created),
                 Z3_on_binding_eh(mbt_binding), Z3_on_clause_eh(mbt_clause))


def mbt_rlimit(ctx, s, key, value):
    p = Z3_mk_params(ctx)
    Z3_params_inc_ref(ctx, p)
    Z3_params_set_uint(ctx, p, Z3_mk_string_symbol(ctx, key), value)
    Z3_solver_set_params(ctx, s, p)
    Z3_params_dec_ref(ctx, p)


def mbt_reference(ctx, assertions, rlimit):
    t = Z3_mk_tactic(ctx, "smt")
    Z3_tactic_inc_ref(ctx, t)
    s = Z3_mk_solver_from_tactic(ctx, t)
    Z3_solver_inc_ref(ctx, s)
    Z3_tactic_dec_ref(ctx, t)
    mbt_rlimit(ctx, s, "rlimit", rlimit)
    for a in assertions:
        Z3_solver_assert(ctx, s, a)
    return s


def mbt_literal(ctx, t, value):
    return t if value else Z3_mk_not(ctx, t)


def mbt_projections(ctx, assertions, terms, rlimit):
    s = mbt_reference(ctx, assertions, rlimit)
    found = set()
    try:
        while True:
            r = Z3_solver_check(ctx, s)
            if r == Z3_L_FALSE:
                return found
            if r == Z3_L_UNDEF or len(found) >= MBT_MAX_MODELS:
                return None
            m = Z3_solver_get_model(ctx, s)
            Z3_model_inc_ref(ctx, m)
            values = []
            for t in terms:
                v = (Ast * 1)()
                if not Z3_model_eval(ctx, m, t, True, v):
                    break
                b = Z3_get_bool_value(ctx, v[0])
                if b == Z3_L_UNDEF:
                    break
                values.append(b == Z3_L_TRUE)
            Z3_model_dec_ref(ctx, m)
            if len(values) < len(terms):
                return None
            found.add(tuple(values))
            lits = []
            for t, b in zip(terms, values):
                # A context with reference counts keeps no unreferenced term.
                lits.append(mbt_literal(ctx, t, not b))
                Z3_inc_ref(ctx, lits[-1])
            Z3_solver_assert(ctx, s, Z3_mk_or(ctx, len(lits), (Ast * len(lits))(*lits)))
            for l in lits:
                Z3_dec_ref(ctx, l)
    finally:
        Z3_solver_dec_ref(ctx, s)


def mbt_propagate(ctx, assertions, terms, enumerate, rlimit):
    global mbt_watch
    w = mbt_watch = MbtWatch(ctx, terms, enumerate)
    (push, pop, fresh, fixed, final, decide, eq, diseq, created, binding, clause) = MBT_CALLBACKS
    s = Z3_mk_simple_solver(ctx)
    Z3_solver_inc_ref(ctx, s)
    mbt_rlimit(ctx, s, "rlimit", rlimit)
    mbt_rlimit(ctx, s, "smt.relevancy", 0)
    for a in assertions:
        Z3_solver_assert(ctx, s, a)
    if not enumerate:
        domain = (Sort * 1)(Z3_get_sort(ctx, terms[0]))
        w.declared = Z3_solver_propagate_declare(ctx, Z3_mk_string_symbol(ctx, "mbt_watched"), 1, domain, Z3_mk_bool_sort(ctx))
        app = Z3_mk_app(ctx, w.declared, 1, (Ast * 1)(terms[0]))
        Z3_inc_ref(ctx, app)
        fresh_const = Z3_mk_fresh_const(ctx, "mbt_watched", Z3_mk_bool_sort(ctx))
        Z3_inc_ref(ctx, fresh_const)
        Z3_solver_assert(ctx, s, Z3_mk_eq(ctx, fresh_const, app))
        Z3_dec_ref(ctx, fresh_const)
        Z3_dec_ref(ctx, app)
    Z3_solver_propagate_init(ctx, s, None, push, pop, fresh)
    Z3_solver_propagate_fixed(ctx, s, fixed)
    Z3_solver_propagate_final(ctx, s, final)
    if enumerate:
        Z3_solver_propagate_decide(ctx, s, decide)
    else:
        Z3_solver_propagate_eq(ctx, s, eq)
        Z3_solver_propagate_diseq(ctx, s, diseq)
        Z3_solver_propagate_created(ctx, s, created)
        Z3_solver_propagate_on_binding(ctx, s, binding)
        Z3_solver_register_on_clause(ctx, s, None, clause)
    for t in terms:
        Z3_solver_propagate_register(ctx, s, t)
    r = Z3_solver_check(ctx, s)
    if w.problem is not None:
        fail(5, "the user propagator's callbacks: %s" % w.problem)
    if not enumerate and r == Z3_L_TRUE:
        m = Z3_solver_get_model(ctx, s)
        Z3_model_inc_ref(ctx, m)
        for kind, a, b in w.trail:
            va = (Ast * 1)()
            if not Z3_model_eval(ctx, m, mbt_ast(a), True, va):
                continue
            value = va[0]
            if kind == 0:
                held = Z3_is_eq_ast(ctx, value, mbt_ast(b))
            else:
                vb = (Ast * 1)()
                if not Z3_model_eval(ctx, m, mbt_ast(b), True, vb):
                    continue
                held = Z3_is_eq_ast(ctx, value, vb[0]) == (kind == 1)
            is_value = Z3_get_bool_value(ctx, value) != Z3_L_UNDEF or Z3_is_numeral_ast(ctx, value)
            if is_value and not held:
                fail(5, "after sat: %s reported for %s is not what the model gives" %
                     ("the value fixed" if kind == 0 else "the (dis)equality", Z3_ast_to_string(ctx, mbt_ast(a))))
        Z3_model_dec_ref(ctx, m)
    blocked, gave_up = set(w.blocked), w.gave_up
    Z3_solver_dec_ref(ctx, s)
    mbt_pop(None, None, len(w.scopes))
    for _, a, b in w.trail:
        Z3_dec_ref(ctx, mbt_ast(a))
        Z3_dec_ref(ctx, mbt_ast(b))
    for t in w.extra:
        Z3_dec_ref(ctx, mbt_ast(t))
    mbt_watch = None
    if not enumerate or gave_up or r == Z3_L_UNDEF:
        return
    if r == Z3_L_TRUE:
        fail(5, "the solver answered sat although the user propagator blocked every assignment in its final callback")
    found = mbt_projections(ctx, assertions, terms, rlimit)
    if found is None:
        return
    if found - blocked:
        fail(5, "blocking clauses find an assignment of the registered terms that the user propagator never saw before unsat")
    for extra in blocked - found:
        ref = mbt_reference(ctx, assertions, rlimit)
        for t, b in zip(terms, extra):
            Z3_solver_assert(ctx, ref, mbt_literal(ctx, t, b))
        c = Z3_solver_check(ctx, ref)
        Z3_solver_dec_ref(ctx, ref)
        if c == Z3_L_TRUE:
            fail(5, "an assignment the user propagator saw is consistent with the formula, but blocking clauses never found it")


