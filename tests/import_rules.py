"""The import rules of firmware/ and host_tools/, read from the source with `ast`.

Why a checker of our own: the rules are about this repository's folders (which
layer may import which), and they must hold for MicroPython files that CPython
never imports. The checker reads files, it runs none of them.

A tree is a folder whose sub-folders are packages (firmware/: `coinche`, `store`,
... on sys.path; host_tools/: one package named after the folder). Three rules:
- no import cycle, whether the imports are at module level or inside functions;
- no private name (`_name`, not `__dunder__`) of another module of the tree
  imported, read as `module._name`, or assigned as `anything._name = ...` outside
  `self`/`cls`: a name with an underscore belongs to its module;
- a module of one layer imports only the layers the table allows (firmware).
"""
import ast
import os


def _module_name(root, path, package):
    """Dotted name of the file at `path` under `root` (`package` prefixes it)."""
    rel = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
    if rel.endswith("__init__"):
        rel = rel[: -len("__init__")].rstrip(".")
    if package:
        rel = package + ("." + rel if rel else "")
    return rel


def read_tree(root, package=""):
    """{module name: (path, ast tree)} for every .py file under root; a folder
    without __init__.py (a namespace package, as MicroPython allows) counts as
    an empty package module."""
    modules = {}
    for top, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "node_modules"))
        if top != root and "__init__.py" not in names and any(n.endswith(".py") for n in names):
            virtual = os.path.join(top, "__init__.py")
            modules[_module_name(root, virtual, package)] = (virtual, ast.parse(""))
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(top, name)
                with open(path, encoding="utf-8") as f:
                    modules[_module_name(root, path, package)] = (path, ast.parse(f.read(), path))
    return modules


def _is_package(modules, name):
    path = modules[name][0] if name in modules else ""
    return path.endswith("__init__.py")


def _resolve(modules, current, node):
    """In-tree modules an import node names, with the names it takes from each."""
    found = []
    if isinstance(node, ast.Import):
        for alias in node.names:
            parts = alias.name.split(".")
            for end in range(len(parts), 0, -1):
                candidate = ".".join(parts[:end])
                if candidate in modules:
                    found.append((candidate, None))
                    break
        return found
    base = node.module or ""
    if node.level:
        here = current.split(".")
        if not _is_package(modules, current):
            here = here[:-1]
        here = here[: len(here) - (node.level - 1)] if node.level > 1 else here
        base = ".".join(here + ([base] if base else []))
    for alias in node.names:
        submodule = base + "." + alias.name if base else alias.name
        if submodule in modules:
            found.append((submodule, None))
        elif base in modules:
            found.append((base, alias.name))
    return found


def edges(modules):
    """{module: {imported in-tree module: first line}}, module level and inside functions."""
    graph = {}
    for name, (_path, tree) in modules.items():
        out = graph.setdefault(name, {})
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target, _taken in _resolve(modules, name, node):
                    if target != name:
                        out.setdefault(target, node.lineno)
    return graph


def cycles(modules):
    """Every strongly connected set of two or more modules (Tarjan), as sorted lists."""
    graph = edges(modules)
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(start):
        # iterative, so a deep import chain cannot hit the recursion limit
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return sorted(found)


def _private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_uses(modules):
    """'path:line: text' for each private name used across modules of the tree."""
    problems = []
    for name, (path, tree) in modules.items():
        imported_modules = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target, taken in _resolve(modules, name, node):
                    if target == name:
                        continue
                    if taken is not None and _private(taken):
                        problems.append("%s:%d: imports %s from %s" % (path, node.lineno, taken, target))
                    if _private(target.rsplit(".", 1)[-1]) and target.rsplit(".", 1)[0] != name.rsplit(".", 1)[0]:
                        problems.append("%s:%d: imports the private module %s" % (path, node.lineno, target))
                for alias in node.names:
                    if taken_is_module(modules, name, node, alias):
                        imported_modules.add(alias.asname or alias.name.split(".")[0])
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                owner = node.value
                if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                    continue
                if isinstance(node.ctx, ast.Store):
                    problems.append("%s:%d: assigns %s.%s" % (path, node.lineno, ast.unparse(owner), node.attr))
                elif isinstance(owner, ast.Name) and owner.id in imported_modules:
                    problems.append("%s:%d: reads %s.%s" % (path, node.lineno, owner.id, node.attr))
    return sorted(problems)


def taken_is_module(modules, current, node, alias):
    """Whether `alias` of an import node binds an in-tree module (import m / from p import m)."""
    if isinstance(node, ast.Import):
        return alias.name.split(".")[0] in {m.split(".")[0] for m in modules}
    for target, taken in _resolve(modules, current, node):
        if taken is None and target.rsplit(".", 1)[-1] == alias.name:
            return True
    return False


def layer_violations(modules, layers, layer_of):
    """'module imports target' for each import a layer table does not allow.

    `layers` maps a layer to the set of layers it may import; `layer_of(module)`
    names a module's layer (None: not ruled)."""
    problems = []
    for name, targets in sorted(edges(modules).items()):
        mine = layer_of(name)
        if mine is None:
            continue
        for target, line in sorted(targets.items()):
            theirs = layer_of(target)
            if theirs is None or theirs == mine:
                continue
            if theirs not in layers.get(mine, ()):
                problems.append("%s:%d: %s (%s) imports %s (%s)" % (
                    modules[name][0], line, name, mine, target, theirs))
    return problems
