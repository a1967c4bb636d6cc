"""The figures in the README come from here: ``python -m benchmarks [--quick] [--json FILE]``.

One module per benchmark; each has a ``run(quick=...)`` returning its figures and smaller
functions that take the sizes (the smoke tests call those on tiny sizes).
"""
