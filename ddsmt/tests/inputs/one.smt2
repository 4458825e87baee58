(get-value (x))
