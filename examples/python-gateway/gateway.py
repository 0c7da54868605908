"""A toolsearch gateway in Python: registers a plugin toolset and serves its executor, opens a
session, assembles, searches, dispatches a turn, has a held call approved, and checks every
message it sends or receives against the published JSON Schema (proto/json-schema/toolsearch-v1.json).

    TOOLSEARCH_NATS_URL=nats://127.0.0.1:4222 TOOLSEARCH_TENANT=demo \
    TOOLSEARCH_CREDENTIAL=tsk_... TOOLSEARCH_APPROVER_CREDENTIAL=tsk_... python3 gateway.py

Needs Python 3.10+ and the `jsonschema` package. Exits 0 when every step behaved as the contract says.
"""

import asyncio
import json
import os
import sys
from pathlib import Path

import jsonschema

from nats_lite import Connection

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "proto/json-schema/toolsearch-v1.json").read_text())
TENANT = os.environ.get("TOOLSEARCH_TENANT", "demo")
TOOLSET = "py-tools"
TOOLS = [
    {
        "name": "echo",
        "description": "Repeat a text back.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "drop_table",
        "description": "Drop a database table.",
        "inputSchema": {"type": "object", "properties": {"table": {"type": "string"}}, "required": ["table"]},
        "risk": "high",
    },
]


def check(schema: dict, value, what: str):
    try:
        jsonschema.Draft202012Validator(schema).validate(value)
    except jsonschema.ValidationError as error:
        raise SystemExit(f"{what} does not match the contract: {error.message}")


def subject(template: str, **params) -> str:
    for key, value in {"tenant": TENANT, **params}.items():
        template = template.replace("{" + key + "}", value.replace(".", "%2E") if key == "toolset" else value)
    return template


class Gateway:
    def __init__(self, nc: Connection, credential: str):
        self.nc, self.credential = nc, credential

    async def call(self, endpoint: str, body: dict, credential: str | None = None, **params) -> dict:
        spec = SCHEMA["endpoints"][endpoint]
        check(spec["request"], body, f"the {endpoint} request")
        headers = {"Authorization": f"Bearer {credential or self.credential}"}
        msg = await self.nc.request(subject(spec["subject"], **params), json.dumps(body).encode(), headers, timeout=10)
        reply = json.loads(msg.data)
        check(spec["reply"], reply, f"the {endpoint} reply")
        if reply.get("ok") is not True:
            raise SystemExit(f"{endpoint} failed: {reply['error']['code']}: {reply['error']['message']}")
        return reply


async def serve_executor(nc: Connection, ran: list):
    async def on_exec(msg):
        request = json.loads(msg.data)
        check(SCHEMA["exec"]["request"], request, "the exec request")
        ran.append((request["tool"], request["arguments"]))
        reply = {"ok": True, "data": {"tool": request["tool"], "arguments": request["arguments"]}}
        check(SCHEMA["exec"]["reply"], reply, "our exec reply")
        await msg.respond(json.dumps(reply).encode())

    await nc.subscribe(subject(SCHEMA["exec"]["subject"], toolset=TOOLSET), on_exec)


async def main() -> int:
    nc = Connection()
    await nc.connect(os.environ.get("TOOLSEARCH_NATS_URL", "nats://127.0.0.1:4222"))
    gateway = Gateway(nc, os.environ["TOOLSEARCH_CREDENTIAL"])
    approver = os.environ["TOOLSEARCH_APPROVER_CREDENTIAL"]
    ran: list = []
    await serve_executor(nc, ran)

    put = await gateway.call("toolsets.put", {"toolset": {"id": TOOLSET, "kind": "plugin", "label": "py", "tools": TOOLS}})
    print(f"registered {TOOLSET} at revision {put['revision']}")
    opened = await gateway.call(
        "sessions.open",
        {"grant": {"toolsets": [TOOLSET]}, "model": {"contextLength": 128000}, "config": {"enabled": "on"}},
    )
    session = opened["session"]["id"]
    assembled = await gateway.call("sessions.assemble", {"format": "openai"}, session=session)
    print(f"session {session}: tier {assembled['tier']}, {len(assembled['tools'])} tools in the array")
    found = await gateway.call("sessions.search", {"queries": ["repeat a text"]}, session=session)
    matches = found["result"]["results"][0]["matches"]
    assert "echo" in matches, f"search did not find echo: {matches}"
    print(f"search found {matches}")

    turn = await gateway.call(
        "sessions.dispatch",
        {"calls": [{"id": "c1", "name": "tool_call", "arguments": {"name": "echo", "arguments": {"text": "hi"}}}]},
        session=session,
    )
    assert turn["results"][0]["ok"] is True, turn
    assert ran == [("echo", {"text": "hi"})], ran
    print("echo ran through the executor")

    held = await gateway.call(
        "sessions.dispatch",
        {"calls": [{"id": "c2", "name": "drop_table", "arguments": {"table": "users"}}]},
        session=session,
    )
    result = held["results"][0]
    assert result["status"] == "pending_approval", result
    approval_id = result["approval_id"]
    print(f"drop_table held for approval {approval_id}")
    shown = await gateway.call("approvals.get", {}, credential=approver, id=approval_id)
    decided = await gateway.call(
        "approvals.decide",
        {
            "decision": "approve",
            "reason": "checked by the Python gateway example",
            "tool": shown["approval"]["tool"],
            "digest": shown["approval"]["digest"],
            "wait_ms": 5000,
        },
        credential=approver,
        id=approval_id,
    )
    outcome = decided["approval"].get("result")
    assert outcome and outcome["ok"] is True, decided
    assert ("drop_table", {"table": "users"}) in ran, ran
    print(f"approved and ran: {outcome['data']}")
    await gateway.call("sessions.close", {}, session=session)
    await nc.close()
    print("gateway conformance: ok")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
