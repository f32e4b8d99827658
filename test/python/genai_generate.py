"""google-genai (Python) generateContent through its chat session (`client.chats`), which keeps
the history itself: every part as the SDK decoded it, `thought_signature` as bytes, sent back
URL-safe base64 (`send_message` / `send_message_stream`)."""
from google import genai
from google.genai import types

from common import QUESTION, TOOL_DESCRIPTION, TOOL_NAME, TOOL_PARAMETERS, run, weather


def play(spec, case):
    client = genai.Client(api_key=spec["api_key"], http_options=types.HttpOptions(base_url=spec["base_url"]))
    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=[types.FunctionDeclaration(name=TOOL_NAME, description=TOOL_DESCRIPTION, parameters_json_schema=TOOL_PARAMETERS)])],
        thinking_config=types.ThinkingConfig(include_thoughts=True),
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    chat = client.chats.create(model=case["model"], config=config)

    def send(message):
        if case["stream"]:
            calls, text = [], ""
            for chunk in chat.send_message_stream(message):
                calls.extend(chunk.function_calls or [])
                text += "".join(p.text for p in (chunk.candidates[0].content.parts or []) if p.text and not p.thought)
            return calls, text
        r = chat.send_message(message)
        return r.function_calls or [], r.text or ""

    calls, _ = send(QUESTION)
    replies = [types.Part.from_function_response(name=c.name, response={"result": weather(c.args)}) for c in calls]
    _, text = send(replies)
    return {"text": text}


if __name__ == "__main__":
    run(play)
