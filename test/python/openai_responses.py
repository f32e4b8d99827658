"""openai (Python) Responses, stateless (`store=False`, `include=["reasoning.encrypted_content"]`):
turn 2's input is turn 1's input, then its output items as the SDK returns them (JSON), or as
its stream helper assembles them (`responses.stream`), then the tool's output."""
import openai

from common import QUESTION, TOOL_DESCRIPTION, TOOL_NAME, TOOL_PARAMETERS, run, weather

TOOLS = [{"type": "function", "name": TOOL_NAME, "description": TOOL_DESCRIPTION, "parameters": TOOL_PARAMETERS}]


def play(spec, case):
    client = openai.OpenAI(base_url=spec["base_url"] + "/v1", api_key=spec["api_key"], max_retries=0)
    items = [{"role": "user", "content": QUESTION}]
    kw = {
        "model": case["model"],
        "tools": TOOLS,
        "store": False,
        "include": ["reasoning.encrypted_content"],
        "reasoning": {"effort": "low", "summary": "auto"},
    }

    def turn():
        if case["stream"]:
            with client.responses.stream(input=items, **kw) as s:
                for _ in s:
                    pass
                return s.get_final_response()
        return client.responses.create(input=items, **kw)

    first = turn()
    items.extend(first.output)
    for item in first.output:
        if item.type == "function_call":
            items.append({"type": "function_call_output", "call_id": item.call_id, "output": weather(item.arguments)})
    signatures = [item.encrypted_content for item in first.output if item.type == "reasoning"]
    return {"text": turn().output_text, "signatures": signatures}


if __name__ == "__main__":
    run(play)
