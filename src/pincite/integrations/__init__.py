"""pincite inside the frameworks teams already use, each behind its own extra.

| module | extra | what it gives |
| --- | --- | --- |
| ``pincite.integrations.langchain`` | ``pincite[langchain]`` | retriever, tools, answer check |
| ``pincite.integrations.llamaindex`` | ``pincite[llamaindex]`` | retriever, query engine |
| ``pincite.integrations.haystack`` | ``pincite[haystack]`` | retriever and answer components |
| ``pincite.integrations.openai_agents`` | ``pincite[agents]`` | function tools |
| ``pincite.integrations.pydantic_ai`` | ``pincite[agents]`` | a toolset |

Every adapter is fixed to one tenant when it is built, returns a chunk's exact
text, and carries the metadata that pins it (:func:`pincite.tools.evidence_metadata`).
Importing this package imports no framework; each module imports only its own.
"""
