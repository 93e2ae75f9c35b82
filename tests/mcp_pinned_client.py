"""Runs in a virtual environment of its own (fastmcp 3.1.0 on mcp 1.26.0, the client BeliefCraft's
agent pins): connects to a served /mcp, lists the tools, makes the calls it is given, and prints
what came back as JSON for tests/test_beliefcraft.py to check.

    python mcp_pinned_client.py URL PLAN_JSON        # PLAN: {"headers": {...}, "calls": [[tool, args], ...]}
"""

import asyncio
import json
import sys
from importlib.metadata import version

from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport


async def main(url: str, plan: dict) -> dict:
    transport = StreamableHttpTransport(url, headers=plan.get("headers") or None)
    out = {"versions": {"fastmcp": version("fastmcp"), "mcp": version("mcp")}, "calls": []}
    async with Client(transport) as client:
        out["tools"] = [{"name": t.name, "description": t.description, "input_schema": t.inputSchema}
                        for t in await client.list_tools()]
        for name, arguments in plan.get("calls", []):
            result = await client.call_tool(name, arguments, raise_on_error=False)
            out["calls"].append({
                "tool": name, "is_error": result.is_error, "structured": result.structured_content,
                "text": "\n".join(getattr(c, "text", "") for c in result.content),
            })
    return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))))
