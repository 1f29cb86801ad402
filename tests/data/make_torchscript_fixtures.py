#!/usr/bin/env python3
"""Writes the TorchScript (.pt) and ONNX fixtures of the importer tests.

Run with Debian's python3-torch (`apt-get install python3-torch`) from the repository root:
    /usr/bin/python3 tests/data/make_torchscript_fixtures.py
The outputs are committed, so the tests need no Python. Each .pt records the shapes and types
of its forward() inputs in an extra file, input_shapes.json, which the importer reads.
"""
import json
import os

import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)


class SmallCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 8, 3, padding=1, groups=2, bias=False),
            nn.ReLU(),
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        x = self.pool(self.features(x))
        return torch.softmax(self.fc(torch.flatten(x, 1)), dim=1)


class SmallLstm(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(20, 8)
        self.lstm = nn.LSTM(8, 16, num_layers=2, batch_first=True)
        self.out = nn.Linear(16, 20)

    def forward(self, tokens):
        y, _ = self.lstm(self.embed(tokens))
        return self.out(y)


class ScriptedMlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(10, 32)
        self.out = nn.Linear(32, 3)

    def forward(self, x):
        h = torch.relu(self.hidden(x))
        if bool(h.sum() > 0):
            h = h * 2.0
        return self.out(h)


def save(module, name, inputs):
    spec = [{"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", "")} for t in inputs]
    path = os.path.join(HERE, name)
    torch.jit.save(module, path, _extra_files={"input_shapes.json": json.dumps({"inputs": spec})})
    print("wrote", path)


def main():
    cnn = SmallCnn().eval()
    image = torch.randn(2, 3, 16, 16)
    save(torch.jit.trace(cnn, image), "small_cnn.pt", [image])
    torch.onnx.export(cnn, image, os.path.join(HERE, "small_cnn.onnx"), opset_version=13,
                      input_names=["image"], dynamic_axes={"image": {0: "batch"}})
    print("wrote", os.path.join(HERE, "small_cnn.onnx"))

    lstm = SmallLstm().eval()
    tokens = torch.zeros(2, 5, dtype=torch.int64)
    save(torch.jit.trace(lstm, tokens), "small_lstm.pt", [tokens])

    mlp = ScriptedMlp().eval()
    save(torch.jit.script(mlp), "scripted_mlp.pt", [torch.randn(4, 10)])

    # A traced module that does not record its input shapes.
    traced = torch.jit.trace(nn.Sequential(nn.Linear(6, 3), nn.Tanh()).eval(), torch.randn(1, 6))
    torch.jit.save(traced, os.path.join(HERE, "no_shapes.pt"))
    print("wrote", os.path.join(HERE, "no_shapes.pt"))


if __name__ == "__main__":
    main()
