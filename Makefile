# Two commands do everything on a fresh machine: `make demo` and `make test`.
# Each creates .venv if it is missing and installs the project into it first.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test test-slow bench lint install clean reader encoder answerability

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,dev]"
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/affidavit demo --corpus corpora/demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

# The tests marked slow (many seconds each), which `make test` leaves out; CI runs both.
test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

lint: $(STAMP)
	$(BIN)/ruff check affidavit tests bench tools
	$(BIN)/mypy affidavit

# Retrain the reader's weights (affidavit/data/reader.npz) from SQuAD 1.1 train in
# ../shared/corpora; under an hour on two cores. `make test` never trains. The network
# beside the hashed weights (`tools/train_reader.py --network`, torch from the `train`
# extra) is not in the shipped weights: see bench/HISTORY.md, issue 39.
reader: $(STAMP)
	$(BIN)/python tools/train_reader.py
	$(BIN)/python tools/train_answerability.py

# Retrain the reader's encoder (affidavit/data/encoder/) from SQuAD 1.1 train, then beside
# the tune split's document questions: about an hour and a half on two cores; checkpoints
# in build/encoder/, and a run stopped goes on from the last one. Then the answerability
# model, which reads the encoder's scores.
encoder: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[train]"
	$(BIN)/python tools/train_encoder_reader.py --resume
	$(BIN)/python tools/train_answerability.py

# Retrain only the answerability model (affidavit/data/answerability.json) on the SQuAD
# 2.0 dev tune articles and the compliance set's tune documents, over the reader's current
# weights (about five minutes on two cores).
answerability: $(STAMP)
	$(BIN)/python tools/train_answerability.py

# Each script keeps its run in bench/runs/<name>.json; the last line rewrites RESULTS.md.
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[bench]"
	$(BIN)/python bench/retrieval.py
	$(BIN)/python bench/ingest.py
	$(BIN)/python bench/gate_halueval.py
	$(BIN)/python bench/digit_perturbation.py
	$(BIN)/python bench/refusal_squad2.py
	$(BIN)/python bench/xquad.py
	$(BIN)/python bench/meaning.py
	$(BIN)/python bench/entity_graph.py
	$(BIN)/python bench/doc_qa.py
	$(BIN)/python bench/compliance.py
	$(BIN)/python bench/tatqa.py
	$(BIN)/python bench/locomo.py
	$(BIN)/python bench/load.py
	$(BIN)/python bench/long_pdf.py
	$(BIN)/python bench/engine_calls.py
	$(BIN)/python bench/scale.py --sizes 2 20
	$(BIN)/python -m pip install --quiet -e ".[ray]"
	$(BIN)/python bench/batch.py
	$(BIN)/python bench/report_load.py
	$(BIN)/python bench/results_page.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
