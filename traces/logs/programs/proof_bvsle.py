import sys
import z3
z3.open_log(sys.argv[1])
s = z3.Solver()
s.set("proof", True)
v = z3.BitVec("v5", 1)
le = v <= v
s.add(z3.Not(le))
s.add(le)
print(s.check())
