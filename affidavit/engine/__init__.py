"""Engines propose candidates: the protocol, the default rule-based engine, a scripted one."""
