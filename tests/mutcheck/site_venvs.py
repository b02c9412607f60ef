"""Bare virtual environments for tests that install projects without touching this one's."""

import subprocess
import sys
import sysconfig
from pathlib import Path


def venv_seeing_ours(root: Path) -> tuple[Path, Path]:
    """A virtual environment without pip at `root` that sees this one's packages (mutcheck, pytest,
    pip) as a site folder, read after its own `.pth` files that sort first: its python and its
    site-packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    python = root / "bin" / "python"
    query = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site_packages = Path(
        subprocess.run([python, "-c", query], capture_output=True, text=True, check=True).stdout.strip()
    )
    outer = sysconfig.get_path("purelib")
    (site_packages / "_outer_site.pth").write_text(f"import site; site.addsitedir({outer!r})\n", encoding="utf-8")
    return python, site_packages
