"""A plain tool-calling loop as a bb-erp cmd: agent: Python's standard library and the erp command.

The runner appends the turn's prompt file. The model is any OpenAI-compatible chat-completions
endpoint (OPENAI_BASE_URL, OPENAI_API_KEY, MODEL, passed with --pass-env); the tools are the
caller's tools of GET /tools.json, each call made with `erp call TOOL --data JSON`. One JSON line per
model request and per tool call goes to stdout (turns/<n>/stdout.txt of the attempt).
"""
import json
import os
import subprocess
import sys
import urllib.request

MAX_STEPS = int(os.environ.get("MAX_STEPS", "40"))


def erp(*args):
    done = subprocess.run(["erp", *args], capture_output=True, text=True)
    return done.stdout.strip() or done.stderr.strip(), done.returncode != 0


def chat(messages, tools):
    body = json.dumps({"model": os.environ["MODEL"], "messages": messages, "tools": tools}).encode()
    request = urllib.request.Request(
        os.environ["OPENAI_BASE_URL"].rstrip("/") + "/chat/completions",
        data=body,
        headers={"content-type": "application/json", "authorization": "Bearer " + os.environ.get("OPENAI_API_KEY", "")},
    )
    with urllib.request.urlopen(request, timeout=300) as response:
        return json.load(response)


def main(prompt_file):
    manifest, failed = erp("get", "/tools.json")
    if failed:
        sys.exit("erp get /tools.json: " + manifest)
    tools = [{"type": "function", "function": {"name": t["name"], "description": t["description"], "parameters": t["parameters"]}} for t in json.loads(manifest)["tools"]]
    handbook = "".join(open(os.path.join("handbook", f)).read() for f in sorted(os.listdir("handbook")) if f.endswith(".md"))
    messages = [
        {"role": "system", "content": "Follow the company handbook. Give each write a unique idempotency_key.\n\n" + handbook},
        {"role": "user", "content": open(prompt_file).read()},
    ]
    for step in range(1, MAX_STEPS + 1):
        reply = chat(messages, tools)
        usage = reply.get("usage") or {}
        message = reply["choices"][0]["message"]
        print(json.dumps({"type": "model_call", "step": step, "tokens_in": usage.get("prompt_tokens", 0), "tokens_out": usage.get("completion_tokens", 0)}), flush=True)
        messages.append(message)
        calls = message.get("tool_calls") or []
        if not calls:
            print(json.dumps({"type": "end", "reason": "answered", "steps": step}))
            return
        for call in calls:
            name, arguments = call["function"]["name"], call["function"]["arguments"] or "{}"
            result, failed = erp("call", name, "--data", arguments)
            print(json.dumps({"type": "tool_call", "step": step, "name": name, "is_error": failed}), flush=True)
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": ("ERROR: " if failed else "") + result})
    print(json.dumps({"type": "end", "reason": "steps", "steps": MAX_STEPS}))


if __name__ == "__main__":
    main(sys.argv[-1])
