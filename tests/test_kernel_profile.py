"""The profile script's bookkeeping: which depths a generated function holds, and which
function a sampled address falls in."""

from benchmarks import kernel_profile as kp


def test_depth_ranges_read_from_the_chain_of_a_generated_module():
    source = (
        "def f0(mem, budget):\n    if rd >= 4:\n        pass\n    if rd >= 15:\n        pass\n"
        "def f1(mem, budget):\n    if rd >= 16:\n        pass\n    if rd >= 20:\n        pass\n"
        "def chain(mem, budget, s):\n    st = -1\n    if s == 4:\n        st = f0(mem, budget)\n"
        "    elif s == 16:\n        st = f1(mem, budget)\n    return st\n"
    )
    assert kp.depth_ranges(source) == {"f0": (4, 15), "f1": (16, 20)}


def test_symbol_names_are_shortened_to_the_generated_function():
    mangled = "_ZN39edgematch_best_0eca954b45155f3f8ea2ec6b3f19B3v30B40c8tJTIeFIjxB2IKSgI4CrvQClQZ6FcpCShpgEU0AE5A"
    assert kp.SYMBOL.search(mangled).group(1) == "f19"
    mangled = "_ZN39edgematch_best_a5069551e47f3ce380a1e96d5chainB2v6B40c8tJTIeFIjx"
    assert kp.SYMBOL.search(mangled).group(1) == "chain"


def test_samples_are_attributed_to_the_function_holding_their_address():
    syms = [(0, 0x100, "chain"), (0x100, 0x400, "f0"), (0x500, 0x200, "f1")]
    base = 0x7F0000000000
    ips = [base + 0x10, base + 0x100, base + 0x4FF, base + 0x4FF, base + 0x650, base + 0x700, 0x1234]
    per_function, per_offset = kp.attribute(ips, syms, base)
    assert per_function == {"chain": 1, "f0": 3, "f1": 1, "other": 2}
    assert per_offset == {0x10: 1, 0x100: 1, 0x4FF: 2, 0x650: 1}
