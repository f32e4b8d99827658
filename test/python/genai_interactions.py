"""google-genai (Python) Interactions, stateless (`store=False`): turn 2's input is turn 1's user
input, then turn 1's steps as the SDK returns them (JSON) or as its streamed events build them,
then the function result."""
import json

from google import genai
from google.genai import types

from common import QUESTION, TOOL_DESCRIPTION, TOOL_NAME, TOOL_PARAMETERS, run, weather

TOOLS = [{"type": "function", "name": TOOL_NAME, "description": TOOL_DESCRIPTION, "parameters": TOOL_PARAMETERS}]


def streamed_steps(stream):
    """The steps a stream's events build: each step.start, its deltas folded in."""
    steps = {}
    for e in stream:
        d = e.model_dump(mode="json", exclude_none=True)
        t = d.get("event_type")
        if t == "step.start":
            steps[d["index"]] = dict(d["step"])
        elif t == "step.delta":
            step, delta = steps[d["index"]], d["delta"]
            kind = delta.get("type")
            if kind == "text":
                content = step.setdefault("content", [])
                if content and content[-1].get("type") == "text":
                    content[-1]["text"] += delta["text"]
                else:
                    content.append({"type": "text", "text": delta["text"]})
            elif kind == "thought_summary":
                # Fragments of the summary, as text deltas are of the output.
                summary = step.setdefault("summary", [])
                piece = delta["content"]
                if summary and summary[-1].get("type") == "text" and piece.get("type") == "text":
                    summary[-1]["text"] += piece["text"]
                else:
                    summary.append(dict(piece))
            elif kind == "thought_signature":
                step["signature"] = delta["signature"]
            elif kind == "arguments_delta":
                step["_args"] = step.get("_args", "") + delta["arguments"]
        elif t == "error":
            raise RuntimeError(json.dumps(d))
    out = []
    for i in sorted(steps):
        step = steps[i]
        if "_args" in step:
            step["arguments"] = json.loads(step.pop("_args"))
        out.append(step)
    return out


def play(spec, case):
    client = genai.Client(api_key=spec["api_key"], http_options=types.HttpOptions(base_url=spec["base_url"]))
    history = [{"type": "user_input", "content": [{"type": "text", "text": QUESTION}]}]
    kw = {"model": case["model"], "tools": TOOLS, "store": False, "generation_config": {"thinking_summaries": "auto"}}

    def turn():
        if case["stream"]:
            return streamed_steps(client.interactions.create(input=history, stream=True, **kw))
        return [s.model_dump(mode="json", exclude_none=True) for s in client.interactions.create(input=history, **kw).steps]

    steps = turn()
    history.extend(steps)
    for s in steps:
        if s["type"] == "function_call":
            history.append({"type": "function_result", "call_id": s["id"], "name": s["name"], "result": weather(s["arguments"])})
    final = turn()
    return {"signatures": [s.get("signature") for s in steps if s["type"] == "thought"], "text": "".join(c.get("text", "") for s in final if s["type"] == "model_output" for c in s.get("content", []))}


if __name__ == "__main__":
    run(play)
