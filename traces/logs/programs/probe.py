import sys
import z3
z3.open_log(sys.argv[1])
x = z3.Int("x")
s = z3.Solver()
s.add(x + 1 > 2)
print(s.check())
m = s.model()
print(m[x], x.sort(), m.eval(x * 2))
