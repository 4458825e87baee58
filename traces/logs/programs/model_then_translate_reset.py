# A program that does ordinary work before it meets the translate-reset crash: 100 integer
# constants in a chain of assertions, a check, the model's value of every constant, then a
# solver translated into the main context, reset and pushed (the crash on Z3 4.8.12).
import sys
import z3

z3.open_log(sys.argv[1])
xs = [z3.Int(f"x{i}") for i in range(100)]
s = z3.Solver()
for a, b in zip(xs, xs[1:]):
    s.add(a < b)
s.add(xs[0] > 0)
assert s.check() == z3.sat
m = s.model()
total = sum(m.eval(x).as_long() for x in xs)
print(total)
c = z3.Solver().translate(z3.main_ctx())
c.reset()
c.push()
