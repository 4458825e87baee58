import sys
import z3
z3.open_log(sys.argv[1])
s = z3.Solver()
c = s.translate(z3.main_ctx())
c.reset()
c.push()
