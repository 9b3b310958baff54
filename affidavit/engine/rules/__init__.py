"""The default engine: no model, no network; extractive candidates by the question's shape
(typed spans, clauses, phrases, table cells) and plans for the routes read at the door."""
