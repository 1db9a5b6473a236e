#!/usr/bin/env python3
"""Drives `kubewhy mcp` with the official MCP Python SDK's stdio client (PyPI `mcp`), as an
assistant's client would: lists the tools, calls each on real inputs, checks every structured
result against the command line's `-o json` of the same input, then tries bad input (an unknown
tool, wrong argument types, a path outside the roots, a 50 MB paste, an archive bomb) and checks
each is a clean MCP error with the server still answering afterwards.

    python3 scripts/mcp-check.py --kubewhy target/debug/kubewhy
    python3 scripts/mcp-check.py --kubewhy BIN --bundle e2e-bundle.tar.zst \
        --kubeconfig KUBECONFIG --namespace rc-scn    # scan_cluster on a real cluster (e2e)

Prints one line per check and exits 1 on the first failure (with what differed).
"""

import argparse
import asyncio
import gzip
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

REPO = Path(__file__).resolve().parent.parent
TOOLS = {"diagnose_text", "diagnose_path", "scan_cluster", "why_gone", "explain_cause",
         "list_causes", "fix_plan"}


class Failed(Exception):
    pass


def check(cond, what, detail=""):
    if not cond:
        raise Failed(f"{what}{': ' + detail if detail else ''}")
    print(f"mcp-check: ok: {what}")


def cli(binary, *args, stdin=None):
    """The command line's answer (stdout), as JSON."""
    out = subprocess.run([binary, *args], input=stdin, capture_output=True)
    if out.returncode not in (0, 1):
        raise Failed(f"kubewhy {' '.join(args)} exited {out.returncode}: {out.stderr.decode()[:500]}")
    return json.loads(out.stdout)


def diff(a, b, path="$"):
    """The first place two JSON values differ, or None."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'the MCP answer' if k in a else 'the command line'}"
            d = diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {str(a)[:200]!r} vs {str(b)[:200]!r}"


def text_of(result):
    return "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))


async def is_error(session, name, args):
    """(True, message) when calling the tool fails cleanly: a tool error or an MCP error."""
    try:
        r = await session.call_tool(name, args)
    except MCPError as e:
        return True, f"MCP error {e.error.code}: {e.error.message}"
    return bool(r.is_error), text_of(r)


async def still_answers(session, after):
    tools = await session.list_tools()
    check(len(tools.tools) == len(TOOLS), f"the server still answers after {after}")


async def run(opts):
    binary = str(Path(opts.kubewhy).resolve())
    work = Path(tempfile.mkdtemp(prefix="kubewhy-mcp-"))
    granted = [REPO, work]

    async def roots(_ctx):
        return types.ListRootsResult(roots=[types.Root(uri=p.as_uri()) for p in granted])

    server_args = ["mcp"]
    if opts.kubeconfig:
        server_args += ["--kubeconfig", opts.kubeconfig]
    else:
        # No cluster here: a kubeconfig whose server refuses connections, so the cluster tools
        # must fail in words.
        bad = work / "kubeconfig"
        bad.write_text(
            "apiVersion: v1\nkind: Config\ncurrent-context: gone\n"
            "clusters: [{name: gone, cluster: {server: 'https://127.0.0.1:9'}}]\n"
            "users: [{name: u, user: {token: t}}]\n"
            "contexts: [{name: gone, context: {cluster: gone, user: u}}]\n")
        server_args += ["--kubeconfig", str(bad)]
    params = StdioServerParameters(command=binary, args=server_args, env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, list_roots_callback=roots) as session:
            init = await session.initialize()
            check(init.server_info.name == "kubewhy", "the server says it is kubewhy")
            tools = {t.name: t for t in (await session.list_tools()).tools}
            check(set(tools) == TOOLS, "the seven tools are listed", str(sorted(tools)))
            for t in tools.values():
                check(t.input_schema.get("type") == "object" and bool(t.description),
                      f"{t.name} has a JSON schema and a description")

            # A dump: the demo snapshot, as `kubewhy scan --from FILE -o json` reads it.
            dump = str(REPO / "demo/cluster-dump.json")
            r = await session.call_tool("diagnose_path", {"path": dump})
            check(not r.is_error, "diagnose_path reads the demo dump", text_of(r)[:300])
            want = cli(binary, "scan", "--from", dump, "-o", "json")
            check(diff(r.structured_content, want) is None,
                  "diagnose_path's structured result is `scan -o json` of the same dump",
                  diff(r.structured_content, want) or "")
            check(want["summary"]["findings"] > 0, "the demo has findings")
            check(any(row["cause"] in text_of(r) for row in want["summary"]["causes"]),
                  "the text overview names the causes")

            # One pod of it.
            pod = want["findings"][0]["objects"][0]
            r = await session.call_tool("diagnose_path", {
                "path": dump, "pod": pod["name"], "namespace": pod["namespace"]})
            want_pod = cli(binary, "pod", pod["name"], "-n", pod["namespace"], "--from", dump,
                           "-o", "json")
            check(diff(r.structured_content, want_pod) is None,
                  f"diagnose_path with pod {pod['namespace']}/{pod['name']} is `kubewhy pod`'s",
                  diff(r.structured_content, want_pod) or "")

            # A paste: a real one from a public thread (tests/fixtures/wild).
            paste_dir = REPO / "tests/fixtures/wild" / opts.paste
            paste = (paste_dir / "input.txt").read_text()
            expected = json.loads((paste_dir / "expected.json").read_text())
            # A paste's ages count back from the moment of reading: both read as of one time.
            now = "2026-11-27T12:00:00Z"
            r = await session.call_tool("diagnose_text", {"text": paste, "now": now})
            want = cli(binary, "scan", "--from", "-", "--now", now, "-o", "json",
                       stdin=paste.encode())
            check(diff(r.structured_content, want) is None,
                  f"diagnose_text of {opts.paste} is `scan --from - -o json` of it",
                  diff(r.structured_content, want) or "")
            first = (r.structured_content.get("findings") or [{}])[0].get("cause")
            check(first == expected["cause"],
                  f"diagnose_text names the thread's cause ({expected['cause']})", str(first))

            # A bundle.
            bundle = str(Path(opts.bundle).resolve())
            if not any(Path(bundle).is_relative_to(g) for g in granted):
                granted.append(Path(bundle).parent)
            r = await session.call_tool("diagnose_path", {"path": bundle})
            want = cli(binary, "scan", "--from", bundle, "-o", "json")
            check(not r.is_error and diff(r.structured_content, want) is None,
                  f"diagnose_path of the bundle {Path(bundle).name} is `scan -o json` of it",
                  diff(r.structured_content, want) or text_of(r)[:300])

            # The catalogue.
            r = await session.call_tool("list_causes", {})
            want = cli(binary, "causes", "-o", "json")
            check(diff(r.structured_content, {"causes": want}) is None,
                  "list_causes is `causes -o json`", diff(r.structured_content, {"causes": want}))
            r = await session.call_tool("explain_cause", {"cause": "KW101"})
            page = subprocess.run([binary, "explain", "KW101"], capture_output=True, text=True)
            check(text_of(r) == page.stdout and r.structured_content["cause"] ==
                  "insufficient-resources", "explain_cause KW101 is `kubewhy explain KW101`")
            failed, msg = await is_error(session, "explain_cause", {"cause": "oom-kiled"})
            check(failed and "oom-killed" in msg, "an unknown cause suggests the near one", msg)

            # why_gone from the files alone (a real cluster's audit log).
            audit = str(REPO / "tests/fixtures/history/audit.log")
            r = await session.call_tool("why_gone", {
                "pod": "rc-gone/manual", "audit_log": audit, "offline": True})
            want = cli(binary, "gone", "rc-gone/manual", "--audit-log", audit, "--from",
                       "/dev/null", "-o", "json")
            check(diff(r.structured_content, want) is None and
                  want["findings"][0]["cause"] == "deleted-by-client",
                  "why_gone offline is `kubewhy gone -o json` (deleted-by-client)",
                  diff(r.structured_content, want) or "")

            # The cluster tools.
            if opts.kubeconfig:
                args = {"namespace": opts.namespace} if opts.namespace else {"all_namespaces": True}
                r = await session.call_tool("scan_cluster", args)
                flags = ["-n", opts.namespace] if opts.namespace else ["-A"]
                want = cli(binary, "scan", "--kubeconfig", opts.kubeconfig, *flags, "-o", "json")
                got = {(f["cause"], tuple(o["name"] for o in f["objects"]))
                       for f in r.structured_content["findings"]}
                exp = {(f["cause"], tuple(o["name"] for o in f["objects"]))
                       for f in want["findings"]}
                check(not r.is_error and got == exp and len(exp) > 0,
                      f"scan_cluster finds what `scan {' '.join(flags)} -o json` finds "
                      f"({len(exp)} findings)", f"{sorted(got ^ exp)[:5]}")
                failed, msg = await is_error(session, "scan_cluster", {"context": "no-such-context"})
                check(failed and "no-such-context" in msg, "an unknown context is a tool error", msg)
                r = await session.call_tool("fix_plan", {"kind": "namespace", "name": "kube-system"})
                check(not r.is_error and "plan" in r.structured_content,
                      "fix_plan returns a plan for a namespace", text_of(r)[:300])
            else:
                failed, msg = await is_error(session, "scan_cluster", {"all_namespaces": True})
                check(failed and "127.0.0.1:9" in msg and "--from" in msg,
                      "scan_cluster of an unreachable cluster is a tool error that says so", msg)
                failed, msg = await is_error(session, "fix_plan", {"kind": "pod", "name": "x"})
                check(failed and msg, "fix_plan without a cluster is a tool error", msg)
                await still_answers(session, "the cluster's failures")

            # Bad input: each a clean error, the server still answering.
            failed, msg = await is_error(session, "no_such_tool", {})
            check(failed and "no_such_tool" in msg, "an unknown tool is an error", msg)
            await still_answers(session, "an unknown tool")
            failed, msg = await is_error(session, "diagnose_text", {"text": 123})
            check(failed and "expected a string" in msg, "a number for text is an error", msg)
            failed, msg = await is_error(session, "diagnose_path", {})
            check(failed and "path" in msg, "a missing path is an error", msg)
            await still_answers(session, "wrong argument types")
            failed, msg = await is_error(session, "diagnose_path", {"path": "/etc/passwd"})
            check(failed and "outside the allowed roots" in msg,
                  "a path outside the roots is refused", msg)
            failed, msg = await is_error(session, "diagnose_path", {"path": str(work / "absent")})
            check(failed and "No such file" in msg, "a missing file is refused", msg)
            await still_answers(session, "refused paths")
            big = "Warning  FailedScheduling  default-scheduler  0/3 nodes are available\n" * 800_000
            failed, msg = await is_error(session, "diagnose_text", {"text": big})
            check(failed and "16 MiB" in msg and "diagnose_path" in msg,
                  f"a {len(big) >> 20} MiB paste is refused in words", msg)
            await still_answers(session, "a 50 MB paste")
            bomb = work / "bomb.json.gz"
            with gzip.open(bomb, "wb", compresslevel=9) as f:
                zeros = b"\0" * (1 << 20)
                for _ in range(400):
                    f.write(zeros)
            failed, msg = await is_error(session, "diagnose_path", {"path": str(bomb)})
            check(failed and "bomb" in msg, "an archive bomb is stopped and said", msg)
            await still_answers(session, "an archive bomb")
            r = await session.call_tool("diagnose_path", {"path": dump})
            check(not r.is_error, "the server still diagnoses after all of it")
    print("mcp-check: every check passed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kubewhy", required=True)
    ap.add_argument("--paste", default="011-describe-oom-loop-21-restarts",
                    help="a case of tests/fixtures/wild")
    ap.add_argument("--bundle", default=str(REPO / "tests/fixtures/bundles/support-bundle.tar.gz"))
    ap.add_argument("--kubeconfig")
    ap.add_argument("--namespace")
    opts = ap.parse_args()
    try:
        asyncio.run(run(opts))
    except (Failed, BaseExceptionGroup) as e:
        while isinstance(e, BaseExceptionGroup):
            e = e.exceptions[0]
        if not isinstance(e, Failed):
            raise e
        print(f"mcp-check: FAILED: {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
