import WeakImageStore

print("Benchmarks: not yet implemented")
