"""``scripts/eval_translate.py --rescore FILE``: a file that is no output of the script is refused
with a one-line error and exit code 2, before the model loads."""
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "eval_translate.py"


@pytest.mark.parametrize("content, message", [
    (None, "not an output of this script (FileNotFoundError"),
    ("not json", "not an output of this script (JSONDecodeError"),
    ('{"predictions": [{"el": "hybrid"}]}', "its predictions lack el/mode/question/pred"),
])
def test_a_bad_rescore_file_is_a_clear_error(tmp_path, content, message):
    path = tmp_path / "saved.json"
    if content is not None:
        path.write_text(content)
    done = subprocess.run([sys.executable, str(SCRIPT), "--rescore", str(path)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert message in done.stderr.splitlines()[-1]
    assert "Traceback" not in done.stderr
