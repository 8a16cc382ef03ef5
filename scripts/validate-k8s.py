#!/usr/bin/env python3
"""Validates rendered Kubernetes objects (a multi-document YAML on stdin or in the files given), offline:
- built-in kinds against Kubernetes' own schemas, strict (an unknown field fails), with PyPI kubernetes-validate;
- the Temporal Worker Controller's kinds (WorkerDeployment, Connection) against the openAPIV3Schema of its CRDs
  (test/deploy/worker-controller-crds/, vendored from its repository), made strict the same way: where a schema
  lists properties and neither allows other fields nor preserves unknown ones, another field is an error (the API
  server would prune it silently). The CRDs' CEL rules (x-kubernetes-validations) are not evaluated.
Prints one line per object and exits 1 on any error. Used by test/deploy/helm-chart.test.ts and by hand:
  helm template x deploy/helm/xborder | python3 scripts/validate-k8s.py --kubernetes-version 1.33
"""
import argparse
import copy
import glob
import os
import sys

import jsonschema
import kubernetes_validate
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
CRD_DIR = os.path.join(HERE, '..', 'test', 'deploy', 'worker-controller-crds')


def strict(schema):
    schema = copy.deepcopy(schema)

    def walk(node):
        if isinstance(node, dict):
            if (
                'properties' in node
                and 'additionalProperties' not in node
                and not node.get('x-kubernetes-preserve-unknown-fields')
            ):
                node['additionalProperties'] = False
            if node.get('x-kubernetes-int-or-string'):
                node.pop('type', None)
                node['anyOf'] = [{'type': 'integer'}, {'type': 'string'}]
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return schema


def crd_schemas():
    schemas = {}
    for path in glob.glob(os.path.join(CRD_DIR, '*.yaml')):
        for doc in yaml.safe_load_all(open(path)):
            if not doc or doc.get('kind') != 'CustomResourceDefinition':
                continue
            group = doc['spec']['group']
            kind = doc['spec']['names']['kind']
            for version in doc['spec']['versions']:
                if version.get('served'):
                    schemas[(f"{group}/{version['name']}", kind)] = strict(version['schema']['openAPIV3Schema'])
    return schemas


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--kubernetes-version', default='1.33')
    parser.add_argument('files', nargs='*')
    args = parser.parse_args()
    texts = [open(f).read() for f in args.files] if args.files else [sys.stdin.read()]
    schemas = crd_schemas()
    failures = 0
    count = 0
    for text in texts:
        for doc in yaml.safe_load_all(text):
            if not doc:
                continue
            count += 1
            name = f"{doc.get('kind')}/{doc.get('metadata', {}).get('name')}"
            key = (doc.get('apiVersion'), doc.get('kind'))
            try:
                if key in schemas:
                    jsonschema.validate(doc, schemas[key])
                    print(f'ok   {name} ({key[0]}, against the CRD)')
                else:
                    kubernetes_validate.validate(doc, args.kubernetes_version, strict=True)
                    print(f'ok   {name} ({key[0]}, Kubernetes {args.kubernetes_version} strict)')
            except (jsonschema.ValidationError, kubernetes_validate.ValidationError) as error:
                failures += 1
                message = getattr(error, 'message', str(error))
                path = '.'.join(str(p) for p in getattr(error, 'absolute_path', getattr(getattr(error, 'caused_by', None), 'path', [])) or [])
                print(f'FAIL {name}: {path} {message}')
            except kubernetes_validate.utils.SchemaNotFoundError as error:
                failures += 1
                print(f'FAIL {name}: no schema for {key}: {error}')
    print(f'{count} objects, {failures} failed')
    return 1 if failures or count == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
