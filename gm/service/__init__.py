"""The use cases of gm: the only place where games meet the store.

Each module holds one family of use cases (campaigns, actions, posts,
scenarios, history). Functions take an ``Env`` (the store and the rendering
settings) and return values; nothing here prints or knows about Click.
"""
