; Solver responses are S-expressions too: check-sat answers, a model, values, an error.
sat
unsat
unknown
(model
  (define-fun x () Int (- 3))
  (define-fun f ((x!0 Int)) Int (ite (= x!0 1) 2 0))
  (define-fun a () (Array Int Int) ((as const (Array Int Int)) 5))
  (define-fun |weird name| () (_ BitVec 4) #x3))
((x (- 3)) (y 2.5) (|weird name| #b0011))
(error "line 3 column 1: unknown constant z")
success
