"""Engines propose candidates and plans: the protocol, the default rule-based engine, a
language model over any OpenAI-compatible server, and for tests a scripted engine and a
server that replays a model's recorded replies."""
