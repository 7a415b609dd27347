"""SPARQL -> IR: the decompiler (the compiler's inverse on the queries CNL can express)."""
