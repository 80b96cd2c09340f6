"""The protocol's shared examples, on both sides of the cable.

``firmware_notes/protocol_examples.txt`` is read here by the Python codec and the reference
device session, and by the firmware's C++ compiled with g++ on this machine; the sketch itself
is compiled against stub Arduino headers and run with frames in and LCD lines out.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.displays.protocol import (
    EXAMPLES_PATH,
    FRAMING_REASONS,
    MESSAGE_REASONS,
    DeviceSession,
    Example,
    ProtocolError,
    check_host_message,
    decode_frame,
    load_examples,
)

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware_notes"
SKETCH = FIRMWARE / "sketch" / "companion_display"
EXAMPLES = load_examples()
GXX = shutil.which("g++")
needs_gxx = pytest.mark.skipif(
    GXX is None, reason="g++ is not installed: the firmware's C++ cannot be compiled on this host"
)


def of(check: str) -> list[Example]:
    return [example for example in EXAMPLES if example.check == check]


def line_id(example: Example) -> str:
    return f"line{example.line_number}"


class TestPythonSide:
    @pytest.mark.parametrize("example", of("frame"), ids=line_id)
    def test_frame(self, example: Example) -> None:
        if example.expect == "ok":
            frame = decode_frame(example.data)
            assert frame == example.frame
            if example.data.endswith(b"\n") and not example.data.endswith(b"\r\n"):
                assert frame.encode() == example.data
        else:
            with pytest.raises(ProtocolError) as caught:
                decode_frame(example.data)
            assert caught.value.reason == example.expect

    @pytest.mark.parametrize("example", of("message"), ids=line_id)
    def test_message(self, example: Example) -> None:
        frame = decode_frame(example.data)
        if example.expect == "ok":
            check_host_message(frame)
        else:
            with pytest.raises(ProtocolError) as caught:
                check_host_message(frame)
            assert caught.value.reason == example.expect

    def test_replies_of_the_reference_device(self) -> None:
        session = DeviceSession()
        for example in EXAMPLES:
            if example.check == "session":
                session = DeviceSession()
            elif example.check == "reply":
                assert session.handle(example.data) == example.reply, example.line_number

    def test_the_examples_name_every_reason(self) -> None:
        named = {example.expect for example in EXAMPLES}
        assert set(FRAMING_REASONS) | set(MESSAGE_REASONS) <= named

    def test_a_malformed_example_file_is_reported_with_its_line(self, tmp_path: Path) -> None:
        path = tmp_path / "examples.txt"
        path.write_text('# header\nframe ok "PING|1*0000\\n\n')
        with pytest.raises(ValueError, match="line 2"):
            load_examples(path)


def compile_and_run(out: Path, sources: list[Path], includes: list[Path], *args: str) -> str:
    assert GXX is not None
    binary = out / sources[0].stem
    command = [GXX, "-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O1"]
    command += [f"-I{path}" for path in includes] + [str(s) for s in sources]
    built = subprocess.run([*command, "-o", str(binary)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    ran = subprocess.run([str(binary), *args], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return ran.stdout


@needs_gxx
class TestFirmwareSide:
    def test_the_cpp_parser_agrees_with_every_example(self, tmp_path: Path) -> None:
        output = compile_and_run(
            tmp_path,
            [FIRMWARE / "host_test" / "protocol_host_test.cpp", SKETCH / "companion_protocol.cpp"],
            [SKETCH],
            str(EXAMPLES_PATH),
        )
        match = re.search(r"(\d+) examples, (\d+) checks passed, 0 failed", output)
        assert match, output
        assert int(match[1]) == len(EXAMPLES)

    def test_the_sketch_shows_the_game_on_the_lcd(self, tmp_path: Path) -> None:
        output = compile_and_run(
            tmp_path,
            [FIRMWARE / "host_test" / "sketch_host_test.cpp", SKETCH / "companion_protocol.cpp"],
            [FIRMWARE / "host_test" / "arduino_stubs", SKETCH],
        )
        assert re.search(r"sketch: \d+ checks passed, 0 failed", output), output


class TestDocumentation:
    def test_every_frame_in_protocol_md_is_byte_exact(self) -> None:
        text = (FIRMWARE / "PROTOCOL.md").read_text(encoding="utf-8")
        frames = re.findall(r"^(?:[<>] )?([A-Z_]{1,9}\|[ -~]*\*[0-9A-F]{4})$", text, re.MULTILINE)
        assert len(frames) >= 20
        for frame in frames:
            decode_frame(frame.encode("ascii"))  # raises on a wrong checksum

    def test_the_documented_session_is_what_the_reference_device_answers(self) -> None:
        text = (FIRMWARE / "PROTOCOL.md").read_text(encoding="utf-8")
        session_text = text.split("## A session, byte for byte")[1].split("An illegal move")[0]
        lines = re.findall(r"^([<>]) (.*)$", session_text, re.MULTILINE)
        device = DeviceSession()
        pairs = zip(lines[::2], lines[1::2], strict=True)
        for (direction, host), (answer_direction, answer) in pairs:
            assert (direction, answer_direction) == (">", "<")
            assert device.handle(host.encode() + b"\n") == answer.encode() + b"\n"

    def test_the_documented_wire_bytes_are_the_example_frame(self) -> None:
        text = (FIRMWARE / "PROTOCOL.md").read_text(encoding="utf-8")
        hex_bytes = re.search(r"the 16 bytes `([0-9A-F ]+)` and then `0A`", text)
        assert hex_bytes
        assert bytes.fromhex(hex_bytes[1]) + b"\n" == b"DICE|12|6|5*FFB1\n"
