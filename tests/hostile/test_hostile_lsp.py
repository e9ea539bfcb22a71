"""Issue 32 item 8: `rules lsp` asked about positions outside the document answers with an empty result, and
its stderr shows no stack trace: a line past the end, and positions that are no LSP position at all (negative,
past 2**31-1, not a whole number), which pygls alone refuses with two stack traces and no answer. A column past
its line's end is that line's end, as LSP says. Driven by a real LSP client (pytest-lsp), as tests/test_lsp.py
drives it, on a copy of the base game."""
from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest.importorskip("pytest_lsp")

from lsprotocol import types as lsp  # noqa: E402
from pytest_lsp import client_capabilities, make_test_lsp_client  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FAR = 2 ** 31 - 1
WAIT = 30  # seconds: a request pygls refuses is never answered; this bounds the wait


def nowhere(line, character) -> lsp.Position:
    """A Position holding what lsprotocol would refuse to hold, as a client that does not check may send it."""
    position = lsp.Position(0, 0)
    object.__setattr__(position, "line", line)
    object.__setattr__(position, "character", character)
    return position


@pytest.mark.asyncio
async def test_positions_outside_the_document_get_an_empty_answer_and_no_stack_trace(tmp_path, capfd):
    shutil.copytree(HERE / "base_game", tmp_path / "game")
    path = tmp_path / "game" / "rules" / "main.rules"
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    client = make_test_lsp_client()
    await client.start_io(sys.executable, "-m", "interpreter.cli", "lsp", cwd=str(tmp_path),
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        await client.initialize_session(lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code"),
                                                             root_uri=tmp_path.as_uri()))
        uri = path.as_uri()
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="rules", version=1, text=text)))
        doc = lsp.TextDocumentIdentifier(uri=uri)
        inside = lsp.Position(1, lines[1].index("pile") + 1)  # a name the server knows: answers there
        assert await client.text_document_hover_async(lsp.HoverParams(doc, inside)) is not None
        past = [lsp.Position(len(lines) + 5, 0), lsp.Position(FAR, 0), lsp.Position(FAR, FAR), lsp.Position(len(lines) + 1, 3)]
        invalid = [nowhere(-1, 0), nowhere(0, -5), nowhere(2 ** 31, 0), nowhere(2 ** 63, 2 ** 70), nowhere(1.5, 0), nowhere("1", 0)]
        for position in past + invalid:
            hover = await asyncio.wait_for(client.text_document_hover_async(lsp.HoverParams(doc, position)), WAIT)
            definition = await asyncio.wait_for(client.text_document_definition_async(lsp.DefinitionParams(doc, position)), WAIT)
            references = await asyncio.wait_for(client.text_document_references_async(lsp.ReferenceParams(
                context=lsp.ReferenceContext(include_declaration=True), text_document=doc, position=position)), WAIT)
            completion = await asyncio.wait_for(client.text_document_completion_async(lsp.CompletionParams(doc, position)), WAIT)
            assert hover is None and not definition and not references, (position, hover, definition, references)
            assert completion is None or not (completion.items if isinstance(completion, lsp.CompletionList) else completion)
        at_line_end = lsp.Position(1, len(lines[1]) + 40)  # the line's end: what is there is answered
        assert await client.text_document_completion_async(lsp.CompletionParams(doc, at_line_end)) is not None
        assert await client.text_document_hover_async(lsp.HoverParams(doc, inside)) is not None  # it goes on
    finally:
        await client.shutdown_session()
        await client.stop()
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Error" not in err, err[-3000:]
