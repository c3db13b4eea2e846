#!/usr/bin/env python3
"""Sorts the samples of `perf script` (call graphs) of the engine bench
into the stages of a request, and prints each stage's share.

    perf record -F 400 --call-graph dwarf,32768 -o put.data -- \
        target/release/deps/engine-<hash> --bench --profile-time 5 'engine put/dynakey db.put'
    perf script -i put.data --no-inline -F comm,tid,ip,sym > put.script
    python3 bench/engine/stages.py put.script

Every sample of the calling thread counts (criterion's profile mode runs
only the chosen case) but those of the bench's set-up (`Bench::new`), and
so does every sample of the embedded engine's server thread
(`dynakey-local-*`, the loopback path). A sample goes to the first stage,
in the order below, whose frames its stack holds.
"""
import re
import sys
from collections import Counter

# (stage, test on the stack's frames) in priority order; `leaf` is the
# innermost frame, `frames` all of them.
STAGES = [
    ("engine (dynoxide's operation, SQLite)", lambda f, leaf, server: any("dynoxide::Database::" in x for x in f)),
    ("dynoxide's HTTP server (hyper, routing, auth and JSON checks)", lambda f, leaf, server: server and not leaf.startswith("[k]")),
    ("kernel (socket I/O, wake-ups)", lambda f, leaf, server: leaf.startswith("[k]")),
    ("transport: request JSON read into dynoxide's types", lambda f, leaf, server: any("in_process" in x for x in f) and any("serde_json::de::from_str" in x for x in f)),
    ("transport: response JSON written", lambda f, leaf, server: any("in_process" in x for x in f) and any("serde_json::ser::to_string" in x for x in f)),
    ("transport: the rest (checks, turn, headers, CRC)", lambda f, leaf, server: any("in_process" in x for x in f)),
    ("SDK: request serialisation", lambda f, leaf, server: any("SerializeRequest>::serialize_input" in x for x in f)),
    ("SDK: response deserialisation", lambda f, leaf, server: any("DeserializeResponse>::deserialize" in x for x in f)),
    ("SDK: signing (SigV4, or the embedded headers)", lambda f, leaf, server: any(("sign_request" in x) or ("aws_sigv4" in x) or ("LocalSigner" in x) for x in f)),
    ("hyper client (connection pool, HTTP/1)", lambda f, leaf, server: any(x.startswith("hyper") or "hyper::" in x or "aws_smithy_http_client" in x for x in f)),
    ("SDK: orchestration (plugins, interceptors, endpoint, retries)", lambda f, leaf, server: any(("aws_smithy_runtime" in x) or ("aws_runtime" in x) or ("aws_sdk_dynamodb" in x) for x in f)),
    ("caller: item codec (to_item / serde_dynamo)", lambda f, leaf, server: any(("to_item" in x) or ("serde_dynamo" in x) for x in f)),
    ("caller: the rest (request building, tokio's block_on)", lambda f, leaf, server: True),
]


def samples(path):
    comm, frames = None, []
    for line in open(path, errors="replace"):
        if not line.strip():
            if comm is not None:
                yield comm, frames
            comm, frames = None, []
        elif not line.startswith(("\t", " ")):
            comm = line.split()[0]
        else:
            parts = line.strip().split(None, 1)
            addr, sym = parts[0], parts[1] if len(parts) > 1 else "?"
            if addr.startswith("ffffffff"):
                sym = "[k]" + sym
            frames.append(sym)
    if comm is not None:
        yield comm, frames


def main(path):
    counts = Counter()
    for comm, frames in samples(path):
        server = comm.startswith("dynakey-local")
        if not frames or any("Bench::new" in x for x in frames):
            continue
        for name, test in STAGES:
            if test(frames, frames[0], server):
                counts[name] += 1
                break
    total = sum(counts.values())
    print(f"{total} samples")
    for name, _ in STAGES:
        if counts[name]:
            print(f"  {100 * counts[name] / total:5.1f} %  {name}")


if __name__ == "__main__":
    main(sys.argv[1])
