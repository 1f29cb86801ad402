#!/usr/bin/env python3
"""The layer rules of design.md, checked on every #include: what each folder may include (the
arrows run one way), and which libraries stay out of public headers. LibTorch is included only in
models/torch/, whose headers (shared modules with torch types) no file outside it includes but the
white-box tests, so every other translation unit builds without LibTorch. Exits 1 naming each
breach; run by ctest as layers/includes."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]', re.M)

# folder -> project folders it must not include (the arrows of design.md, and inside core the
# family interface below partitioners below placers below steering).
FORBIDDEN = {
    "core": ["app/", "views/", "models/"],
    "core/family": ["core/placers/", "core/partitioners/", "core/steering/"],
    "core/partitioners": ["core/placers/", "core/steering/"],
    "core/placers": ["core/steering/"],
    "models": ["app/", "views/"],
    "views": ["app/", "models/"],
    "app/cli": ["views/", "app/Document", "app/MainWindow"],
}
# External headers kept out of layers (by prefix), and out of every public header.
NO_QT = ("Q", "qt")
PRIVATE_LIBS = ("torch/", "ATen/", "c10/", "onnx/", "metis.h", "graphviz/", "gvc.h", "cgraph.h", "glpk.h")


def main():
    breaches = []
    for path in sorted(ROOT.glob("**/*")):
        if path.suffix not in (".h", ".cpp") or any(p in path.parts for p in ("build", "fuzz-build", ".git")):
            continue
        rel = path.relative_to(ROOT).as_posix()
        includes = INCLUDE.findall(path.read_text(errors="replace"))
        for folder, banned in FORBIDDEN.items():
            if rel.startswith(folder + "/"):
                for inc in includes:
                    if any(inc.startswith(b) for b in banned):
                        breaches.append(f"{rel}: includes {inc} ({folder}/ may not)")
        for inc in includes:
            if (rel.startswith("core/") or rel.startswith("app/cli/")) and inc.startswith(NO_QT):
                breaches.append(f"{rel}: includes {inc} (no Qt here)")
            # The white-box tests of models/torch/ (tests/models/) include LibTorch as its headers do.
            if inc.startswith(("torch/", "ATen/", "c10/")) and not rel.startswith(("models/torch/", "tests/models/")):
                breaches.append(f"{rel}: includes {inc} (LibTorch only in models/torch/)")
            if path.suffix == ".h" and inc.startswith(PRIVATE_LIBS) and "/torch/" not in "/" + rel:
                breaches.append(f"{rel}: public header includes {inc}")
            # models/torch/'s headers carry LibTorch types: private to its .cpp files (and the
            # white-box tests), so LibTorch stays out of every other translation unit.
            if inc.startswith("models/torch/") and not rel.startswith(("models/torch/", "tests/")):
                breaches.append(f"{rel}: includes {inc} (models/torch/ headers are private to models/torch/)")
    for b in breaches:
        print(b)
    print(f"{len(breaches)} breaches of the layer rules")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
