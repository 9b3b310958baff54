"""The scorer: the learned span scorer that picks the answer out of the best lines, and the
answerability model that says whether to give it."""
