"""The one reader of language, for every room: words and index terms, numbers, years,
dates, quantities, typed spans and sentences, in English, Spanish and Turkish."""
