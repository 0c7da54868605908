"""A small NATS client on asyncio, enough for a toolsearch gateway: connect (optionally with a user
and password), publish with headers, subscribe, request/reply. Written against the NATS client
protocol (https://docs.nats.io/reference/reference-protocols/nats-protocol) with the standard
library only, so the example runs where the `nats-py` package cannot be installed; a production
gateway would use nats-py instead.
"""

import asyncio
import itertools
import json
import secrets
from urllib.parse import urlparse


class NatsError(Exception):
    """The server refused something, or a request got no answer in time."""


class Msg:
    def __init__(self, client, subject, reply, headers, data):
        self.client, self.subject, self.reply, self.headers, self.data = client, subject, reply, headers, data

    async def respond(self, data: bytes):
        if self.reply:
            await self.client.publish(self.reply, data)


class Connection:
    def __init__(self):
        self._reader = self._writer = None
        self._sids = itertools.count(1)
        self._subs = {}
        self._inbox = f"_INBOX.{secrets.token_hex(8)}"
        self._waiting = {}
        self._next = itertools.count(1)
        self._pong = None
        self._task = None

    async def connect(self, url: str):
        parsed = urlparse(url)
        self._reader, self._writer = await asyncio.open_connection(parsed.hostname, parsed.port or 4222)
        info = await self._reader.readline()
        if not info.startswith(b"INFO "):
            raise NatsError(f"unexpected greeting: {info[:80]!r}")
        options = {"verbose": False, "pedantic": False, "headers": True, "no_responders": True, "lang": "python-lite", "version": "0.1"}
        if parsed.username:
            options.update(user=parsed.username, **({"pass": parsed.password} if parsed.password else {}))
        self._writer.write(f"CONNECT {json.dumps(options)}\r\nPING\r\n".encode())
        await self._writer.drain()
        line = await self._reader.readline()
        if line.startswith(b"-ERR"):
            raise NatsError(line.decode().strip())
        self._task = asyncio.create_task(self._read_loop())
        await self.subscribe(f"{self._inbox}.*", self._on_reply)

    async def close(self):
        if self._task:
            self._task.cancel()
        if self._writer:
            self._writer.close()

    async def publish(self, subject: str, data: bytes, reply: str = "", headers: dict | None = None):
        if headers:
            head = "NATS/1.0\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
            raw = head.encode()
            self._writer.write(f"HPUB {subject} {reply} {len(raw)} {len(raw) + len(data)}\r\n".encode() + raw + data + b"\r\n")
        else:
            self._writer.write(f"PUB {subject} {reply} {len(data)}\r\n".encode() + data + b"\r\n")
        await self._writer.drain()

    async def subscribe(self, subject: str, callback):
        sid = str(next(self._sids))
        self._subs[sid] = callback
        self._writer.write(f"SUB {subject} {sid}\r\n".encode())
        await self._writer.drain()

    async def request(self, subject: str, data: bytes, headers: dict | None = None, timeout: float = 5.0) -> Msg:
        token = str(next(self._next))
        future = asyncio.get_running_loop().create_future()
        self._waiting[token] = future
        try:
            await self.publish(subject, data, reply=f"{self._inbox}.{token}", headers=headers)
            return await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            raise NatsError(f"no answer on {subject} within {timeout}s") from None
        finally:
            self._waiting.pop(token, None)

    async def _on_reply(self, msg: Msg):
        future = self._waiting.get(msg.subject.rsplit(".", 1)[-1])
        if future and not future.done():
            if msg.headers.get("status") == "503":
                future.set_exception(NatsError(f"no responders on the request to {msg.subject}"))
            else:
                future.set_result(msg)

    async def _read_loop(self):
        while True:
            line = (await self._reader.readline()).decode().rstrip("\r\n")
            if line == "PING":
                self._writer.write(b"PONG\r\n")
                await self._writer.drain()
            elif line.startswith("MSG ") or line.startswith("HMSG "):
                parts = line.split(" ")
                with_headers = parts[0] == "HMSG"
                subject, sid = parts[1], parts[2]
                reply = parts[3] if len(parts) == (6 if with_headers else 5) else ""
                total = int(parts[-1])
                head_len = int(parts[-2]) if with_headers else 0
                body = await self._reader.readexactly(total + 2)
                headers = {}
                if with_headers:
                    lines = body[:head_len].decode().split("\r\n")
                    status = lines[0].split(" ")
                    if len(status) > 1:
                        headers["status"] = status[1]
                    for header in lines[1:]:
                        if ":" in header:
                            key, value = header.split(":", 1)
                            headers[key.strip()] = value.strip()
                callback = self._subs.get(sid)
                if callback:
                    asyncio.create_task(callback(Msg(self, subject, reply, headers, body[head_len:total])))
            elif line.startswith("-ERR"):
                raise NatsError(line)
            elif line == "":
                return
