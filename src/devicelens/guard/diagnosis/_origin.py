"""Where a culprit came from, in the user's names: a namespace object, or a line of their code.

A culprit tensor the namespace does not hold (a local, a temporary) is followed back through the
code that made it, read from source and never run: its assignments in the function, the caller's
argument for a parameter, a user function's ``return``. The trail ends at a namespace object whose
device/dtype matches the culprit's (``attention_mask`` behind `position_ids` in
RotaryEmbedding.forward) or at the line that made it wrong (``torch.zeros(n)`` without a device),
which becomes an :class:`~._edits.Edit`.
"""

from __future__ import annotations

import ast
import operator
import types
from typing import Any, cast

from ...inspect import _tree, _types
from ..families import _code_bugs, _setting
from ..families._dispatched import derived_input
from ..families._int_fill import with_fill
from ..running._frames import Frame, frame_locals
from . import _source
from ._blame import Namer, is_tensor, meta
from ._edits import MOVES
from ._source import Code
from ._trace import Origin, Scope, Want, is_torch_namespace, namespace_scope

MAX_DEPTH = 8
_CASTS = frozenset({"long", "int", "float", "double", "half", "bfloat16", "bool", "byte",
                    "short", "char", "type"})


_COMPREHENSIONS = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"})


class Tracer:
    """Follows culprits back through the user's code; see the module's docstring."""

    def __init__(self, frames: list[Frame], namer: Namer, is_user: Any, want: Want) -> None:
        self.frames, self.namer, self.is_user, self.want = frames, namer, is_user, want
        self._seen: set[tuple[int, int, int, str]] = set()
        self._followed: set[tuple[int, str]] = set()  # (frame, local) followed from another
        self.item_key = ""  # the dict key the culprit sits under, when tracing a dict

    # -- entry points
    def scope(self, i: int) -> Scope | None:
        fr = self.frames[i]
        code = _source.frame_code(fr.frame)
        if code is None:
            return None
        return Scope(code, self._values(i), fr.frame.f_globals, fr.lineno, i)

    def _values(self, i: int) -> dict[str, Any]:
        """Frame ``i``'s locals; a comprehension's (it runs in a frame of its own up to Python
        3.11) over those of the function that runs it, the next frame out: it sees the
        function's names (``self``), its own locals only the ones it reads."""
        fr = self.frames[i]
        values = frame_locals(fr.frame)
        if fr.frame.f_code.co_name not in _COMPREHENSIONS or i + 1 >= len(self.frames):
            return values
        outer = self.frames[i + 1].frame
        if not any(c is fr.frame.f_code for c in outer.f_code.co_consts):
            return values
        return {**frame_locals(outer), **values}

    def local(self, i: int, name: str, sub: str = "") -> list[Origin]:
        """The culprit is local ``name`` (element ``sub`` of it, ``[0]``) of frame ``i``."""
        sc = self.scope(i)
        if sc is None:
            return []
        if sub:
            found = self._element(sc, name, sub)
            if found is not None:
                return found
        out = self.name(sc, name, 0)
        if out or self.is_user(sc.code.src.filename):
            return out
        staged = self._previous_stage(i, sc.values.get(name))
        if staged is not None:
            return staged
        # NB: an argument inside torch's own code (a layer's `input`): look where the user's
        # code made it, on the line of the first user frame out
        user = next((j for j in range(i + 1, len(self.frames))
                     if self.is_user(self.frames[j].frame.f_code.co_filename)), -1)
        return self.temporary(user) if user >= 0 else []

    def _previous_stage(self, i: int, obj: Any) -> list[Origin] | None:
        """``obj``, an argument of torch's code in frame ``i``, is the input of a stage of a
        torch ``Sequential`` running further out (``for module in self: input =
        module(input)``): what the stage before it returned. That stage's own ``forward``,
        where it is the user's, says where its output came from (PennyLane's TorchLayer
        rebuilt its result on the host, for the next Linear on the GPU). None where there is
        no such stage; a first stage's input is the caller's (the user frame out)."""
        import torch

        seq = torch.nn.Sequential.forward.__code__
        if not is_tensor(obj):
            return None
        fr = next((f.frame for f in self.frames[i:] if f.frame.f_code is seq), None)
        values = frame_locals(fr) if fr is not None else {}
        if values.get("input") is not obj:
            return None
        table = dict.get(_types.instance_dict(values.get("self")) or {}, "_modules")
        stages = list(dict.values(table)) if type(table) is dict else []
        at = next((k for k, m in enumerate(stages) if m is values.get("module")), -1)
        if at <= 0:
            return None
        prev = stages[at - 1]
        fn = _tree._type_dict_lookup(type(prev), "forward")
        if type(fn) is not types.FunctionType or not self.is_user(fn.__code__.co_filename):
            return None
        call = ast.Call(ast.Name("stage", ast.Load()), [ast.Name("input", ast.Load())], [])
        return self._returns(namespace_scope({}), call, fn, 1, me=prev, at_call=False)

    def temporary(self, i: int) -> list[Origin]:
        """The culprit was made on frame ``i``'s current statement and bound to no name."""
        sc = self.scope(i)
        if sc is None:
            return []
        stmt = _source.statement_at(sc.code, sc.line)
        if stmt is None:
            return []
        out: list[Origin] = []
        for node in _source.own_nodes_of(stmt):
            if isinstance(node, ast.Call) and (self.user_function(sc, node) is not None
                                               or self.user_module(sc, node) is not None):
                # NB: a module of the user's called on the line (``residual + proj(x)``): its
                # ``forward`` says where its output was made, as a helper's body does
                out += self.expr(sc, node, 1)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                getter = self._user_property(sc, node)  # NB: `mask.float_matrix`, a getter
                if getter is not None:
                    out += self._property(sc, node, getter, 1)
        out += _code_bugs.in_statement(self, sc, stmt)
        if out:
            return out
        # NB: a temporary made from a name on the line (``mask.logical_not()``): that name; or
        # the user's NumPy array of the culprit's dtype (``torch.as_tensor(obs)``)
        for node in _source.own_nodes_of(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                v = sc.values[node.id] if node.id in sc.values else sc.globals.get(node.id)
                if is_tensor(v) and self.matches(v):
                    out += self.name(sc, node.id, 1)
                elif not is_tensor(v):
                    out += self._named_array(v)
        return out

    # -- expressions
    def expr(self, sc: Scope, node: ast.expr | None, depth: int) -> list[Origin]:
        if node is None or depth > MAX_DEPTH:
            return []
        # NB: the column too: one line may make the same expression twice (``(torch.randn(n),
        # torch.randn(n))``), each a stray of its own
        key = (id(sc.code.body), getattr(node, "lineno", 0), getattr(node, "col_offset", 0),
               ast.dump(node)[:200])
        if key in self._seen:
            return []
        self._seen.add(key)
        if isinstance(node, ast.Name):
            return self.name(sc, node.id, depth)
        if isinstance(node, ast.Attribute | ast.Subscript):
            return self._chain(sc, node, depth)
        if isinstance(node, ast.Call):
            return self._call(sc, node, depth)
        if isinstance(node, ast.Starred):
            return self.expr(sc, node.value, depth + 1)
        if isinstance(node, ast.DictComp) and self.item_key:
            return _code_bugs.exempt_key(self, sc, node, self.item_key)
        if isinstance(node, ast.IfExp):  # NB: the test is no part of the value
            return [o for c in (node.body, node.orelse) for o in self.expr(sc, c, depth + 1)]
        children = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)]
        return [o for c in children for o in self.expr(sc, c, depth + 1)]

    def name(self, sc: Scope, name: str, depth: int) -> list[Origin]:
        setting = _setting.for_name(self, sc, name)
        if setting:
            return setting
        bugs = _code_bugs.for_name(self, sc, name) or derived_input(self, sc, name)
        assigned = _source.assignments(sc.code, name, sc.line)
        if bugs and assigned and assigned[-1][1] is not None \
                and all(o.role == "code" and o.edit is None for o in bugs):
            # NB: a line with nothing to take the right dtype from (``torch.as_tensor(y[i:j])``)
            # may still copy it from the user's data: the data, when the trail reaches it, is
            # the culprit the user can fix
            stmt, value = assigned[-1]
            at = sc._replace(line=stmt.lineno)
            args = [*value.args, *(k.value for k in value.keywords)] \
                if isinstance(value, ast.Call) else [value]
            held = [o for a in args for o in self.expr(at, a, depth + 1) if o.role != "code"]
            if held:
                return held
        if bugs:
            return with_fill(self, sc, name, bugs)
        if assigned:
            stmt, value = assigned[-1]
            # NB: names in the value are those bound before that line (`x = x.view(-1)`)
            if value is None:  # NB: a loop target: in a live frame, what it is bound to now
                unpacked = self._unpacked(sc, stmt, name, depth)
                if unpacked:
                    return unpacked
                loaded = self._loaded(sc, stmt)
                if loaded:
                    return loaded
                return self._named(sc.values.get(name), name) if sc.frame >= 0 else []
            at = sc._replace(line=stmt.lineno)
            found = self.expr(at, value, depth + 1)
            if isinstance(value, ast.List):
                # NB: a list filled later (``feed_imgs = []``, then ``.append`` in a loop):
                # its items are where what is stacked from it came from
                found += [o for item in _source.appended(sc.code, name, stmt.lineno, sc.line)
                          for o in self.expr(sc._replace(line=item.lineno), item, depth + 1)]
            found = found or _code_bugs.where_made(self, at, value, name)
            if isinstance(value, ast.Call) and found and all(o.role == "code" for o in found):
                found = found + self.producer(at, value, name)
            if not found and sc.frame >= 0 and depth < MAX_DEPTH and self.want.kind == "device":
                # NB: a value that came out of torch's code as it went in (``nn.Identity``,
                # an augmentation that does nothing): the live tensor is bound to another
                # name, here or in another frame, whose trail goes on (byol-pytorch's
                # ``self.augment1(x)``, ``x`` the mock image its ``__init__`` made). Devices
                # only: a dtype is cast where the module reads it as often as where it was made
                obj = sc.values.get(name)
                if is_tensor(obj) and self.matches(obj):
                    self._followed.add((sc.frame, name))
                    found = self._bound_elsewhere(sc, obj, depth, same_frame=True)
            return found
        if name in sc.code.params() and name != "self":
            return self._param(sc, name, depth)
        obj = sc.values[name] if name in sc.values else sc.globals.get(name)
        found = self._named(obj, name)
        if not found and sc.frame >= 0 and is_tensor(obj) and depth < MAX_DEPTH:
            found = self._bound_elsewhere(sc, obj, depth)
        return found

    def _bound_elsewhere(self, sc: Scope, obj: Any, depth: int,
                         same_frame: bool = False) -> list[Origin]:
        """``obj`` (a closure's free variable, say) as a local of another live user frame,
        followed there: ``selected_beam`` of ``iter``, which the closure ``fn`` captured through
        ``_expand_state``'s parameter, made by ``iter``'s own line. ``same_frame``: under another
        name of frame ``sc`` too."""
        for j, fr in enumerate(self.frames):
            if (j == sc.frame and not same_frame) or not self.is_user(fr.frame.f_code.co_filename):
                continue
            here = self.scope(j)
            if here is None:
                continue
            for k, v in here.values.items():
                if v is obj and k != "self" and (j, k) not in self._followed:
                    self._followed.add((j, k))  # NB: each (frame, name) once: no ping-pong
                    found = self.name(here, k, depth + 1)
                    if found:
                        return found
        return []

    def _chain(self, sc: Scope, node: ast.Attribute | ast.Subscript, depth: int) -> list[Origin]:
        obj = self.live(sc, node)
        if obj is not None and is_tensor(obj):
            named = self.namer.namespace_tensor(obj)
            if named is not None:
                return [self._origin(named, obj)] if self.matches(obj) else []
        if isinstance(node, ast.Attribute):
            getter = self._user_property(sc, node)
            if getter is not None:
                return self._property(sc, node, getter, depth)
        return self.expr(sc, node.value, depth + 1)

    def _user_property(self, sc: Scope, node: ast.Attribute) -> Any:
        """The getter of the user's ``@property`` that ``node`` reads (read, never called)."""
        base = self.live(sc, node.value)
        if base is None:
            return None
        prop = _tree._type_dict_lookup(type(base), node.attr)
        fget = prop.fget if isinstance(prop, property) else None
        if type(fget) is not types.FunctionType or not self.is_user(fget.__code__.co_filename):
            return None
        return fget

    def _property(self, sc: Scope, node: ast.Attribute, fget: Any, depth: int) -> list[Origin]:
        """What the getter returns, followed like a helper's result; converted where it is read
        when the getter has nothing of the right device or dtype to take it from."""
        code = _source.function_code(fget)
        if code is None or code.func is None:
            return []
        params = code.params()
        values = {params[0]: self.live(sc, node.value)} if params else {}
        callee = Scope(code, values, fget.__globals__, (code.func.end_lineno or 0) + 1, -1, sc)
        found = [o for r in _source.returns(code) for o in self.expr(callee, r, depth + 1)]
        if any(o.role == "code" and o.edit is None for o in found):
            found = [o for o in found if o.edit is not None] + _code_bugs.at_call(self, sc, node)
        return found

    def _call(self, sc: Scope, node: ast.Call, depth: int) -> list[Origin]:
        setting = _setting.in_value(self, sc, node)
        if setting:
            return setting
        bug = _code_bugs.in_call(self, sc, node)
        if bug is not None and self.want.kind != "device" and node.args \
                and all(o.role == "code" and o.edit is None for o in bug):
            # NB: a factory with nothing to take the dtype from here copies its data's
            # (``torch.from_numpy(image)``): a line of code that gave that data its dtype
            # (``image.astype(np.float64)`` a line before) is the place to change; the user's
            # own arrays are found as before, where the trail names them (a whole list of
            # them at once, not item by item)
            held = [o for o in self.expr(sc, node.args[0], depth + 1) if o.edit is not None]
            if held:
                return held
        if bug is not None:
            return bug
        callee = self.user_function(sc, node)
        if callee is not None:
            return self._returns(sc, node, callee, depth) or self._module_made(sc, node)
        called = self.user_module(sc, node)
        if called is not None:
            # NB: a module of the user's (``self.encoder(feat)``): its own ``forward`` says
            # where its output came from (the input it promoted, a tensor it made)
            found = self._returns(sc, node, called[0], depth, me=called[1])
            if found:
                return found
        made = self._module_made(sc, node)
        if made:
            return made
        called = self.user_callable(sc, node)
        if called is not None:
            # NB: an object of theirs called as a function (outlines' model wrapper): what its
            # ``__call__`` writes wrong is edited there; nothing is converted where it is
            # called (it may give a tokenizer's dict, which has no ``.to``)
            found = [o for o in self._returns(sc, node, called[0], depth, me=called[1],
                                              at_call=False) if o.edit is not None]
            if found:
                return found
        func = node.func
        if isinstance(func, ast.Attribute):
            if func.attr in MOVES and self.want.kind == "device" \
                    and not self._cast_only(sc, node):
                return []  # NB: the move's own target decides where it lands
            recv = self.expr(sc, func.value, depth + 1)
            if not recv and not is_torch_namespace(sc, func.value):
                recv = self._held_maker(sc, node)
            if recv or not is_torch_namespace(sc, func.value):
                return recv
        return [o for a in (*node.args, *(k.value for k in node.keywords))
                for o in self.expr(sc, a, depth + 1)]

    def _cast_only(self, sc: Scope, node: ast.Call) -> bool:
        """``t.to(torch.int32)``, ``t.to(dtype=x.dtype)``: a cast, which keeps the device (so
        where ``t`` was made still decides it)."""
        import torch

        if not isinstance(node.func, ast.Attribute) or node.func.attr != "to":
            return False
        if any(k.arg not in ("dtype", "non_blocking", "copy", "memory_format")
               for k in node.keywords):
            return False
        for a in node.args:
            if isinstance(a, ast.Attribute) and a.attr == "dtype":
                continue  # NB: ``x.dtype``
            if type(self.live(sc, a)) is not torch.dtype:
                return False
        return bool(node.args or node.keywords)

    # -- calls into user code
    def user_function(self, sc: Scope, node: ast.Call) -> Any:
        """The plain Python function ``node`` calls, when it is user code (else None)."""
        func = node.func
        fn: Any = None
        if isinstance(func, ast.Name):
            fn = sc.values.get(func.id, sc.globals.get(func.id))
        elif isinstance(func, ast.Attribute):
            base = self.live(sc, func.value)
            if base is not None:
                # NB: read off the class itself (``BiEncoder.create_biencoder_input(samples)``):
                # a static method of the class's own, not an attribute of its metaclass
                fn = _tree._type_dict_lookup(base if isinstance(base, type) else type(base),
                                             func.attr)
                if isinstance(fn, staticmethod):
                    fn = fn.__func__
        fn = _source.unwrapped(fn)  # NB: a method under ``@torch.no_grad()`` is the user's
        if type(fn) is not types.FunctionType:
            return None
        return fn if self.is_user(fn.__code__.co_filename) else None

    def user_module(self, sc: Scope, node: ast.Call) -> tuple[Any, Any] | None:
        """(its ``forward``, the module) when ``node`` calls an ``nn.Module`` whose ``forward``
        is user code. NB: the class's own ``forward``, read through the MRO's ``__dict__``s:
        never ``__call__``, hooks or a ``__getattr__``."""
        import torch

        obj = self.live(sc, node.func)
        if obj is None or not issubclass(type(obj), torch.nn.Module):
            return None
        hooked = dict.get(_types.instance_dict(obj) or {}, "forward")
        if hooked is not None:
            return self._forward_replaced(hooked)
        fn = _tree._type_dict_lookup(type(obj), "forward")
        if type(fn) is not types.FunctionType or not self.is_user(fn.__code__.co_filename):
            return None
        return fn, obj

    def _forward_replaced(self, hooked: Any) -> tuple[Any, Any] | None:
        """A ``forward`` bound on the module itself, which ``nn.Module.__call__`` runs instead
        of its class's (webui's Tiled VAE: ``vae.encoder.forward = VAEHook(...)``): the
        ``__call__`` of the user's object, or the user's function; None for anything else.
        NB: read through ``__dict__``s, never called."""
        if type(hooked) is types.MethodType:
            fn, me = hooked.__func__, hooked.__self__
        elif type(hooked) is types.FunctionType:
            return None  # NB: no ``self`` to bind: a closure over what the trail cannot see
        else:
            fn = _source.unwrapped(_tree._type_dict_lookup(type(hooked), "__call__"))
            me = hooked
        if type(fn) is not types.FunctionType or not self.is_user(fn.__code__.co_filename):
            return None
        return fn, me

    def user_callable(self, sc: Scope, node: ast.Call) -> tuple[Any, Any] | None:
        """(its ``__call__``, the object) when ``node`` calls a plain object of the user's whose
        class defines ``__call__`` in user code (a model wrapper, a pipeline). NB: read through
        the MRO's ``__dict__``s and any ``functools.wraps`` decorator (``@torch.no_grad()``),
        never called."""
        import torch

        obj = self.live(sc, node.func)
        if obj is None or isinstance(obj, type) or issubclass(type(obj), torch.nn.Module) \
                or type(obj) in (types.FunctionType, types.MethodType):
            return None
        fn = _source.unwrapped(_tree._type_dict_lookup(type(obj), "__call__"))
        if type(fn) is not types.FunctionType or not self.is_user(fn.__code__.co_filename):
            return None
        return fn, obj

    def _returns(self, sc: Scope, node: ast.Call, fn: Any, depth: int,
                 me: Any = None, at_call: bool = True) -> list[Origin]:
        code = _source.function_code(fn)
        if code is None or code.func is None:
            return []
        values = _bind(code, node, sc, self)
        if me is not None:
            values["self"] = me
        callee = Scope(code, values, fn.__globals__, (code.func.end_lineno or 0) + 1, -1, sc, node)
        found = [o for r in _source.returns(code) for o in self.expr(callee, r, depth + 1)]
        if at_call and any(o.role == "code" and o.edit is None for o in found):
            # NB: the helper has nothing to take the right device/dtype from: convert its
            # result where the caller uses it
            found = [o for o in found if o.edit is not None] + _code_bugs.at_call(self, sc, node)
        return found

    def _unpacked(self, sc: Scope, stmt: ast.stmt, name: str, depth: int) -> list[Origin]:
        """``scale, zero_point = derive_qparams(obs)``: the element of what the user's function
        returns (``return derived_scale, derived_zero``) at ``name``'s position, followed
        there (executorch's ``derived_zero``, made on the cpu with no device)."""
        if not isinstance(stmt, ast.Assign) or not isinstance(stmt.value, ast.Call):
            return []
        i = next((t.elts.index(e) for t in stmt.targets if isinstance(t, ast.Tuple | ast.List)
                  for e in t.elts if isinstance(e, ast.Name) and e.id == name), None)
        if i is None or any(isinstance(e, ast.Starred) for t in stmt.targets
                            if isinstance(t, ast.Tuple | ast.List) for e in t.elts):
            return []
        at = sc._replace(line=stmt.lineno)
        fn = self.user_function(at, stmt.value)
        code = _source.function_code(fn) if fn is not None else None
        if code is None or code.func is None:
            return []
        values = _bind(code, stmt.value, at, self)
        callee = Scope(code, values, fn.__globals__, (code.func.end_lineno or 0) + 1, -1, at,
                       stmt.value)
        found = [o for r in _source.returns(code)
                 if isinstance(r, ast.Tuple) and i < len(r.elts)
                 for o in self.expr(callee, r.elts[i], depth + 1)]
        # NB: a maker with nothing to take the device or dtype from is converted where its
        # elements are unpacked, not through the call (a tuple has no ``.to``)
        kept = [o for o in found if not (o.role == "code" and o.edit is None)]
        if found and not kept:
            return _code_bugs.at_unpack(self, at, stmt, name)
        return kept

    def _param(self, sc: Scope, name: str, depth: int) -> list[Origin]:
        found = self.argument(sc, name)
        if found is None:
            return []
        caller, arg = found
        return self.expr(caller, arg, depth + 1) or self._read(caller, arg)

    def _read(self, sc: Scope, arg: ast.expr) -> list[Origin]:
        """The caller's argument, an element of a container its own code made
        (``biencoder_input.question_ids``, ``**query_encoding``) where the trail into the maker
        found nothing to fix: moved where the call reads it, in the caller (the data is fixed,
        not the model it reaches). NB: a device only, in a live frame, where the element is
        the stray and the container is a local the caller bound."""
        if self.want.kind != "device" or sc.frame < 0:
            return []
        root = _unpacked_from(arg) or arg
        while isinstance(root, ast.Attribute | ast.Subscript):
            root = root.value
        if not isinstance(root, ast.Name) or root.id in sc.code.params() \
                or not _source.assignments(sc.code, root.id, sc.line):
            return []
        if not self.matches(self.live(sc, arg)):
            return []
        return _code_bugs.at_read(self, sc, arg, root.id, _unpacked_from(arg))

    def argument(self, sc: Scope, name: str) -> tuple[Scope, ast.expr] | None:
        """The caller's scope and the expression it passed for parameter ``name``."""
        found = self.call_site(sc)
        if found is None:
            return None
        caller, call = found
        arg = _argument(sc.code, call, name, method=_is_method(sc.code))
        return (caller, arg) if arg is not None else None

    def call_site(self, sc: Scope) -> tuple[Scope, ast.Call] | None:
        """The caller's scope and its call that runs ``sc``, where it is known."""
        if sc.caller is not None and sc.call is not None:
            return sc.caller, sc.call
        return self._live_caller(sc)

    def _live_caller(self, sc: Scope) -> tuple[Scope, ast.Call] | None:
        """The user frame that called frame ``sc.frame``, and the call on its line."""
        for j in range(sc.frame + 1, len(self.frames)):
            if not self.is_user(self.frames[j].frame.f_code.co_filename):
                continue
            caller = self.scope(j)
            if caller is None:
                return None
            stmt = _source.statement_at(caller.code, caller.line)
            for node in _source.own_nodes_of(stmt) if stmt is not None else []:
                if isinstance(node, ast.Call) and self._calls(caller, node, sc):
                    return caller, node
            return None
        return None

    def _calls(self, caller: Scope, node: ast.Call, callee: Scope) -> bool:
        func, me, name = node.func, callee.self_obj, callee.code.func
        fname = name.name if name is not None else ""
        if me is not None:
            # NB: ``mll(out, y)`` runs ``__call__`` as ``model(x)`` runs ``forward``
            if fname in ("forward", "__call__") and self.live(caller, func) is me:
                return True
            return (isinstance(func, ast.Attribute) and func.attr == fname
                    and self.live(caller, func.value) is me)
        return (isinstance(func, ast.Name) and func.id == fname) or (
            isinstance(func, ast.Attribute) and func.attr == fname)

    def kept(self, i: int, path: str) -> list[Origin]:
        """The culprit is ``path`` (``frames.rotations``), an attribute of an object that a
        local of frame ``i`` holds (:meth:`.Namer.held`): followed where it was given to the
        object's class, when its ``__init__`` keeps it as it is; [] otherwise."""
        name, dot, attr = path.partition(".")
        sc = self.scope(i) if dot and name.isidentifier() and attr.isidentifier() else None
        return (self._kept_argument(sc, name, attr) or []) if sc is not None else []

    def _element(self, sc: Scope, name: str, sub: str) -> list[Origin] | None:
        """``state[0]`` where ``state = (a, b)``: follow the element."""
        try:
            index = ast.literal_eval(sub.strip("[]"))
        except (ValueError, SyntaxError):
            return None
        assigned = _source.assignments(sc.code, name, sc.line)
        value = assigned[-1][1] if assigned else None
        if isinstance(value, ast.Tuple | ast.List) and isinstance(index, int) \
                and index < len(value.elts):
            return self.expr(sc, value.elts[index], 1)
        if not assigned and isinstance(index, str):
            return self._keyword_passed(sc, name, index, 0)
        return None

    def _keyword_passed(self, sc: Scope, name: str, key: str, hops: int) -> list[Origin] | None:
        """``kwargs['index']`` where ``kwargs`` is the function's ``**`` parameter: what its
        caller passed as ``index=``, followed through callers that hand their own ``**kwargs``
        on (torchmetrics' ``apply_to_collection``, recursive, given ``index=sample_idx`` by
        ``BootStrapper.update``). None where no call site says."""
        fdef = sc.code.func
        if fdef is None or fdef.args.kwarg is None or fdef.args.kwarg.arg != name \
                or hops > _MAX_HOPS:
            return None
        site = self.call_site(sc)
        if site is None:
            return None
        caller, call = site
        given = next((k.value for k in call.keywords if k.arg == key), None)
        if given is not None:
            return self.expr(caller, given, 1)
        spread = [k.value for k in call.keywords if k.arg is None]
        if len(spread) == 1 and isinstance(spread[0], ast.Name):
            return self._keyword_passed(caller, spread[0].id, key, hops + 1)
        return None

    def _kept_argument(self, sc: Scope, name: str, attr: str) -> list[Origin] | None:
        """``frames.rotations`` where ``frames = Frame(rotations=torch.eye(3), ...)``: a class
        of the user's whose ``__init__`` keeps that argument as the attribute, as it is
        (``self.rotations = rotations``); the argument is followed where the call passes it.
        NB: the ``__init__`` is read from source, never run."""
        assigned = _source.assignments(sc.code, name, sc.line)
        stmt, value = assigned[-1] if assigned else (None, None)
        if stmt is None or not isinstance(value, ast.Call):
            return None
        cls = self.live(sc, value.func)
        if not isinstance(cls, type):
            return None
        init = _source.unwrapped(_tree._type_dict_lookup(cls, "__init__"))
        if type(init) is not types.FunctionType or not self.is_user(init.__code__.co_filename):
            return None
        code = _source.function_code(init)
        if code is None:
            return None
        kept = [a.value for a in _source.self_attr_assignments(code, attr)]
        if len(kept) != 1 or not isinstance(kept[0], ast.Name) or kept[0].id == "self" \
                or kept[0].id not in code.params():
            return None
        arg = _argument(code, value, kept[0].id, method=True)
        return self.expr(sc._replace(line=stmt.lineno), arg, 1) if arg is not None else None

    # -- namespace objects
    def live(self, sc: Scope, node: ast.expr) -> Any:
        """The object a plain ``a.b[k]`` chain names right now (no user code runs)."""
        steps: list[_tree.Step] = []
        cur: ast.expr = node
        while isinstance(cur, ast.Attribute | ast.Subscript):
            if isinstance(cur, ast.Attribute):
                steps.append(_tree.Step("attr", cur.attr))
            else:
                key = _key(sc, cur.slice)
                if key is None:
                    return None
                # NB: a tuple key is read as any dict key; the type says what refs store
                steps.append(_tree.Step("item", cast(Any, key)))
            cur = cur.value
        if isinstance(cur, ast.Call):
            root, name = self._getter_result(sc, cur), "_"
        elif isinstance(cur, ast.Name):
            root, name = sc.values[cur.id] if cur.id in sc.values else sc.globals.get(cur.id), \
                cur.id
        else:
            return None
        if root is None:
            return None
        try:
            return _tree.resolve({name: root}, (_tree.Step("name", name), *reversed(steps)))
        except LookupError:
            return None

    def _getter_result(self, sc: Scope, call: ast.Call) -> Any:
        """What ``obj.get_model()`` returns where that method of the user's only returns an
        attribute chain of ``self`` (``return self.model``), read from its source, never
        called; None otherwise."""
        func = call.func
        if call.args or call.keywords or not isinstance(func, ast.Attribute):
            return None
        base = self.live(sc, func.value)
        fn = _tree._type_dict_lookup(type(base), func.attr) if base is not None else None
        if type(fn) is not types.FunctionType or not self.is_user(fn.__code__.co_filename):
            return None
        code = _source.function_code(fn)
        if code is None or code.func is None:
            return None
        body, params = code.func.body, code.params()
        if len(body) != 1 or not isinstance(body[0], ast.Return) or not params \
                or not isinstance(body[0].value, ast.Attribute | ast.Subscript | ast.Name):
            return None
        return self.live(Scope(code, {params[0]: base}, {}, 0, -1), body[0].value)

    def producer(self, sc: Scope, call: ast.Call, local: str) -> list[Origin]:
        """The user's object that made local ``local`` wrong where ``call`` made it: a module
        of theirs whose every parameter is on the culprit's device (or in its dtype)
        (``self.get_model().vision_tower(images)``), or an object whose method made it and
        which holds only tensors or a device setting of the culprit's
        (``self._exploration_noise.sample(shape)``, built on cuda:0). Named beside the edit,
        never instead of it: the user holds that object, not the line. [] where nothing says
        so. NB: reads ``__dict__``s and parameters' headers; no user code runs."""
        import torch

        w = self.want
        func = call.func
        obj = self.live(sc, func)
        if obj is None or not issubclass(type(obj), torch.nn.Module):
            obj = self.live(sc, func.value) if isinstance(func, ast.Attribute) else None
        if obj is None or is_tensor(obj) or not self._made_there(obj, w):
            return []
        path = self.namer.owner(obj)
        root = path.split(".")[0].split("[")[0]
        if not path or root not in self.namer.ns:
            return []
        what = f"on {w.device}" if w.kind == "device" else f"in {w.dtype}"
        return [Origin(path, "", obj, "producer",
                       detail=f"`{local}` is made by {path}, which is {what}")]

    def _module_made(self, sc: Scope, node: ast.Call) -> list[Origin]:
        """``self.trunk(cond_input)``: a module of the namespace whose every weight is where
        the culprit is made it (hypnettorch's hypernetwork left on the cpu beside a main
        network and data on the GPU): its weights are the culprit, moved with their model as
        any model's are. Devices only. NB: read, never run; torch's modules and the user's."""
        import torch

        if self.want.kind != "device":
            return []  # NB: a float32 part of a half model is often meant (an upcast VAE)
        obj = self.live(sc, node.func)
        if not issubclass(type(obj), torch.nn.Module) and isinstance(node.func, ast.Attribute):
            obj = self.live(sc, node.func.value)  # NB: ``hnet.forward(cond_id=...)``
        if not issubclass(type(obj), torch.nn.Module) or not self._made_there(obj, self.want):
            return []
        path = self.namer.owner(obj)
        root = path.split(".")[0].split("[")[0]
        if not path or root not in self.namer.ns:
            return []
        whole, obj = self._whole_model(path, obj)
        if whole is None:
            return []
        return [Origin(whole, whole, obj, "maker", detail=f"{whole} makes it with its own "
                       f"weights, every one on {self.want.device}")]

    def _held_maker(self, sc: Scope, node: ast.Call) -> list[Origin]:
        """``self._dist.rsample(shape)``: a plain object of a library's (a torch
        ``Distribution``) whose every tensor is where the culprit is made it, held by the
        user's object whose ``.to()`` moved its own tensors and not the copies this one keeps
        (GPyTorch's prior, moved to the GPU, its distribution still on the cpu): converted
        where it is read, to what the user's object has. NB: the holder is a module (whose
        ``.to()`` left the object behind), not a plain object built for a device of its own;
        read, never run."""
        import torch

        func = node.func
        holder = sc.self_obj
        if not isinstance(func, ast.Attribute) or not issubclass(type(holder), torch.nn.Module) \
                or not (isinstance(func.value, ast.Attribute)
                        and isinstance(func.value.value, ast.Name)
                        and func.value.value.id == "self"):
            return []  # NB: ``self.<library object>.method(...)`` in a module's own method
        obj = self.live(sc, func.value)
        if obj is None or is_tensor(obj) or issubclass(type(obj), torch.nn.Module) \
                or isinstance(obj, type) or not self._made_there(obj, self.want):
            return []
        return [o for o in _code_bugs.at_call(self, sc, node) if o.edit is not None]

    def _whole_model(self, path: str, part: Any) -> tuple[str | None, Any]:
        """The outermost module on ``path`` (``hnet`` of ``hnet.trunk``) whose every weight is
        where the culprit is: the model the part belongs to moves whole, not one layer of it.
        (None, None) where the outermost module on the path has weights elsewhere too: a model
        split over devices on purpose, whose part stays where it was put."""
        import torch

        try:
            node = ast.parse(path, mode="eval").body
        except SyntaxError:
            return path, part
        chain = [node]
        while isinstance(chain[-1], ast.Attribute | ast.Subscript):
            chain.append(chain[-1].value)
        at = namespace_scope(self.namer.ns)
        for n in reversed(chain):
            obj = self.live(at, n)
            if issubclass(type(obj), torch.nn.Module):
                return (ast.unparse(n), obj) if self._made_there(obj, self.want) else (None, None)
        return path, part

    def _made_there(self, obj: Any, w: Want) -> bool:
        """Whether ``obj`` holds only what the culprit is: its parameters (a module), else the
        tensors and device settings of its ``__dict__`` and of the plain objects in it."""
        import torch

        from ._blame import iter_params

        if w.kind == "device":
            def off(t: Any) -> bool | None:
                m = meta(t)
                return None if m is None else m[0] == w.device
        elif w.kind == "dtype" and w.fix == "" and w.expected.startswith(("float", "bfloat")):
            def off(t: Any) -> bool | None:
                m = meta(t)
                return None if m is None or not m[1].startswith(("float", "bfloat")) \
                    else m[1] == w.dtype
        else:
            return False
        if issubclass(type(obj), torch.nn.Module):
            seen = [off(p) for p in iter_params(obj, 10_000)]
        else:
            seen = []
            todo, depth = [obj], 0
            while todo and depth < 2:
                nxt = []
                for o in todo:
                    d = _types.instance_dict(o)
                    for v in (d or {}).values():
                        if is_tensor(v):
                            seen.append(off(v))
                        elif type(v) is torch.device and w.kind == "device":
                            seen.append(str(v) == w.device)
                        elif _types.instance_dict(v) is not None and not issubclass(
                                type(v), torch.nn.Module):
                            nxt.append(v)
                todo, depth = nxt, depth + 1
        seen = [x for x in seen if x is not None]
        return bool(seen) and all(seen)

    def _named(self, obj: Any, code: str) -> list[Origin]:
        if obj is None:
            return []
        if not is_tensor(obj):
            return self._named_array(obj)
        named = self.namer.namespace_tensor(obj)
        if named is None or not self.matches(obj):
            return []
        return [self._origin(named, obj)]

    def _loaded(self, sc: Scope, stmt: ast.stmt) -> list[Origin]:
        """A batch from ``for x, y in loader`` with a wrong dtype: the one array (or tensor) of
        the loader's dataset with that dtype, which the batch was collated from
        (``dataset.y_data``, int32 labels). NB: the dataset's ``__dict__`` is read, never its
        ``__getitem__``; nothing is named when several fields could be it."""
        if self.want.kind == "device" or not isinstance(stmt, ast.For | ast.AsyncFor):
            return []
        it = stmt.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) \
                and it.func.id == "enumerate" and it.args:
            it = it.args[0]
        ds = _dataset(self.live(sc, it))
        data = _tree.instance_dict(ds) if ds is not None else None
        if data is None:
            return []
        found = [(k, v) for k, v in data.items() if self._holds_want(v)]
        if len(found) != 1 or not found[0][0].isidentifier():
            return []
        # NB: named through the dataset that holds it: rebinding another name for the same
        # array would leave the dataset reading the old one
        key, obj = found[0]
        holder = self.namer.deep([ds]).get(id(ds), "")
        path = f"{holder}.{key}" if holder else ""
        return [Origin(path, path, obj, "array" if array_dtype(obj) else "tensor")] if path \
            else []

    def _holds_want(self, v: Any) -> bool:
        if array_dtype(v):
            return array_dtype(v) == self.want.dtype
        m = meta(v)
        return m is not None and m[1] == self.want.dtype and m[2] != ()

    def _named_array(self, obj: Any) -> list[Origin]:
        """A NumPy array of the user's that a tensor with the culprit's dtype was made from
        (``torch.as_tensor(y[i:j])``, ``y`` the labels passed in): its dtype is where the
        wrong dtype comes from, so it is the culprit. NB: never for a device: NumPy is on the
        cpu, and its data is never read."""
        if self.want.kind == "device" or array_dtype(obj) != self.want.dtype:
            return []
        path = self.namer.deep([obj]).get(id(obj), "")
        return [Origin(path, path, obj, "array")] if path else []

    def _origin(self, named: Any, obj: Any) -> Origin:
        return Origin(named.name, named.code, obj, named.role)

    def matches(self, t: Any) -> bool:
        """Could ``t`` be the culprit (same device, or same dtype for dtype problems)?"""
        m = meta(t)
        if m is None:
            return False
        if self.want.kind == "device":
            return m[0] == self.want.device
        return m[1] == self.want.dtype or self.want.fix != ""


#: how many callers handing their ``**kwargs`` on :meth:`Tracer._keyword_passed` follows
_MAX_HOPS = 8


def _dataset(loader: Any) -> Any:
    """A DataLoader's dataset (through ``Subset``-style wrappers that keep theirs in
    ``.dataset``); None for anything else."""
    import torch

    if not isinstance(loader, torch.utils.data.DataLoader):
        return None
    own = _tree.instance_dict(loader)
    data = own.get("dataset") if own is not None else None
    for _ in range(3):
        d = _tree.instance_dict(data)
        if d is None:
            return None
        inner = d.get("dataset")
        if inner is None or _tree.instance_dict(inner) is None:
            return data
        data = inner
    return None


def array_dtype(obj: Any) -> str:
    """The torch dtype (``int64``) a tensor made from NumPy array ``obj`` gets; '' for anything
    else. NB: reads the dtype only."""
    import sys

    np = sys.modules.get("numpy")
    if np is None or type(obj) is not np.ndarray:
        return ""
    import torch

    try:
        return str(torch.from_numpy(np.empty(0, dtype=obj.dtype)).dtype).removeprefix("torch.")
    except (TypeError, ValueError):  # NB: object, string and datetime arrays have no twin
        return ""


def _key(sc: Scope, node: ast.expr) -> str | int | tuple[str | int, ...] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str | int) \
            and type(node.value) is not bool:
        return node.value
    if isinstance(node, ast.Name):
        v = sc.values.get(node.id)
        if type(v) is tuple and all(type(x) is str or type(x) is int for x in v):
            return v  # NB: a cache's key (``(device, size)``)
        return v if type(v) is str or type(v) is int else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
            and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int:
        return -node.operand.value  # NB: `history[-1]`, the last item
    if isinstance(node, ast.BinOp) and type(node.op) in _INT_OPS:
        # NB: ``weights[2 * i + 1]``: integer arithmetic on the frame's own ints (exact ints
        # only, so no user ``__mul__`` runs)
        a, b = _key(sc, node.left), _key(sc, node.right)
        if type(a) is int and type(b) is int and (b != 0 or type(node.op) in _INT_OPS_SAFE) \
                and abs(a) < 1 << 31 and abs(b) < 1 << 31:
            return cast(int, _INT_OPS[type(node.op)](a, b))
    return None


_INT_OPS_SAFE = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}
_INT_OPS = {**_INT_OPS_SAFE, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}


def _is_method(code: Code) -> bool:
    return bool(code.params()) and code.params()[0] == "self"


def _argument(code: Code, call: ast.Call, name: str, method: bool) -> ast.expr | None:
    """The expression ``call`` passes for parameter ``name`` of ``code``; for one a dict
    unpacked into the call passes (``model(**inputs)``), ``inputs[name]``, made here
    (:func:`_unpacked_from` tells it from the user's code)."""
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    params = code.params()[1:] if method else code.params()
    if code.func is not None:
        positional = [p.arg for p in (*code.func.args.posonlyargs, *code.func.args.args)]
        params = positional[1:] if method else positional
    if name in params:
        i = params.index(name)
        if i < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:i + 1]):
            return call.args[i]
        if i < len(call.args):
            return None
    spread = [kw.value for kw in call.keywords if kw.arg is None]
    if len(spread) == 1:
        item = _Unpacked(spread[0], ast.Constant(name), ast.Load())
        item.spread = spread[0]
        return ast.copy_location(item, spread[0])
    return None


class _Unpacked(ast.Subscript):
    """``inputs[name]``, an item of the dict ``**inputs`` passes (:func:`_argument`): read as a
    subscript, but in no source (its ``spread`` is the ``inputs`` the user wrote)."""

    spread: ast.expr


def _unpacked_from(node: ast.expr) -> ast.expr | None:
    """The ``inputs`` of ``**inputs`` where ``node`` is an item :func:`_argument` made for it."""
    return node.spread if isinstance(node, _Unpacked) else None


def _bind(code: Code, call: ast.Call, sc: Scope, tracer: Tracer) -> dict[str, Any]:
    """The live values the caller passes (``self`` for a method), where they can be named."""
    out: dict[str, Any] = {}
    method = _is_method(code)
    if method and isinstance(call.func, ast.Attribute):
        me = tracer.live(sc, call.func.value)
        if me is not None:
            out["self"] = me
    for p in code.params():
        arg = _argument(code, call, p, method)
        if arg is not None:
            v = tracer.live(sc, arg) if not isinstance(arg, ast.Name) else sc.values.get(
                arg.id, sc.globals.get(arg.id))
            if v is not None:
                out[p] = v
    return out
