import sys
import z3
z3.open_log(sys.argv[1])
s = z3.Solver()
U = z3.DeclareSort("U")
u = z3.Const("u5", U)
F = z3.FPSort(2, 3)
x = z3.FP("fp8", F)
RM = z3.RNE().sort()
rm = z3.Const("rm9", RM)
f = z3.Function("f10", RM, U, z3.BitVecSort(1), F)
v = z3.BitVec("v39", 1)
s.add(z3.fpGT(z3.fpAdd(rm, x, f(rm, u, v)), x))
s.push()
