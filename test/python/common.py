"""Shared pieces of the Python SDK runs (test/clients/python-sdks.test.ts drives them).

A run reads its spec as JSON on stdin: {"base_url", "api_key", "cases": [{"id", "model",
"stream"}]}, plays each case's conversation through the proxy (turn 1 asks for the weather and
gets reasoning and a tool call, turn 2 sends the tool's result back with the history as the SDK
keeps it) and prints one JSON line per case: {"id", "text", "signatures"} or {"id", "error"};
`signatures` lists what each reasoning block of turn 1 held in its signature field, as the SDK
gave it to the app (where the dialect has one).
"""
import json
import sys
import traceback

QUESTION = "What is the weather in Lisbon?"
TOOL_NAME = "get_weather"
TOOL_DESCRIPTION = "The current weather in a city."
TOOL_PARAMETERS = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
}


def weather(args):
    """The tool: the scripted model always asks for Lisbon."""
    if isinstance(args, str):
        args = json.loads(args or "{}")
    return "sunny" if args.get("city") == "Lisbon" else "unknown city"


def run(play):
    spec = json.load(sys.stdin)
    for case in spec["cases"]:
        try:
            out = {"id": case["id"], **play(spec, case)}
        except Exception as e:  # a case that fails is reported, the others still run
            out = {"id": case["id"], "error": f"{type(e).__name__}: {e}", "trace": traceback.format_exc()[-2000:]}
        print(json.dumps(out), flush=True)
