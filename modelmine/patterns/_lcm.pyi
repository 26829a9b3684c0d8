# Type stub of the C extension modelmine/patterns/_lcm.c (built with the package).
# tids and root: any C-contiguous buffer of uint64 words (numpy arrays in practice).
def mine(
    tids: object, n_items: int, n_words: int, root: object, min_count: int, max_len: int,
    mode: int, limit: int, max_bytes: int, /,
) -> tuple[bytes, bytes, bytes, int, bool, bool]: ...
