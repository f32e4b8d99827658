"""anthropic (Python) Messages with extended thinking: the assistant turn sent back as the SDK
returns its content (JSON), or as its stream helper assembles it (`messages.stream`)."""
import anthropic

from common import QUESTION, TOOL_DESCRIPTION, TOOL_NAME, TOOL_PARAMETERS, run, weather

TOOLS = [{"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "input_schema": TOOL_PARAMETERS}]


def play(spec, case):
    client = anthropic.Anthropic(base_url=spec["base_url"], api_key=spec["api_key"], max_retries=0)
    messages = [{"role": "user", "content": QUESTION}]
    kw = {"model": case["model"], "max_tokens": 2048, "tools": TOOLS, "thinking": {"type": "enabled", "budget_tokens": 1024}}

    def turn():
        if case["stream"]:
            with client.messages.stream(messages=messages, **kw) as s:
                for _ in s:
                    pass
                return s.get_final_message()
        return client.messages.create(messages=messages, **kw)

    first = turn()
    messages.append({"role": "assistant", "content": first.content})
    results = [
        {"type": "tool_result", "tool_use_id": b.id, "content": weather(b.input)} for b in first.content if b.type == "tool_use"
    ]
    messages.append({"role": "user", "content": results})
    final = turn()
    signatures = [b.signature for b in first.content if b.type == "thinking"]
    return {"text": "".join(b.text for b in final.content if b.type == "text"), "signatures": signatures}


if __name__ == "__main__":
    run(play)
