import sys
import z3
z3.open_log(sys.argv[1])
s = z3.Solver()
for cube in s.cube():
    print(cube)
