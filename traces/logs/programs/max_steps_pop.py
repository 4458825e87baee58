import sys
import z3
z3.open_log(sys.argv[1])
s = z3.Solver()
s.set("max_steps", 0)
s.push()
b = z3.Bool("_v53")
s.add(b)
print(s.check())
try:
    s.assert_and_track(b, b)
except z3.Z3Exception as e:
    print("error:", e)
s.pop()
