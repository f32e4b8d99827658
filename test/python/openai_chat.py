"""openai (Python) Chat Completions: the tool loop, the assistant message appended as the SDK
returns it (JSON), or as its stream helper assembles it (`chat.completions.stream`)."""
import openai

from common import QUESTION, TOOL_DESCRIPTION, TOOL_NAME, TOOL_PARAMETERS, run, weather

TOOLS = [{"type": "function", "function": {"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "parameters": TOOL_PARAMETERS}}]


def play(spec, case):
    client = openai.OpenAI(base_url=spec["base_url"] + "/v1", api_key=spec["api_key"], max_retries=0)
    messages = [{"role": "user", "content": QUESTION}]
    kw = {"model": case["model"], "tools": TOOLS, "reasoning_effort": "low"}

    def turn():
        if case["stream"]:
            with client.chat.completions.stream(messages=messages, **kw) as s:
                for _ in s:
                    pass
                return s.get_final_completion().choices[0].message
        return client.chat.completions.create(messages=messages, **kw).choices[0].message

    first = turn()
    messages.append(first)
    for call in first.tool_calls or []:
        messages.append({"role": "tool", "tool_call_id": call.id, "content": weather(call.function.arguments)})
    return {"text": turn().content}


if __name__ == "__main__":
    run(play)
