{{- define "xborder.labels" -}}
app.kubernetes.io/name: xborder
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "xborder.selector" -}}
app.kubernetes.io/name: xborder
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "xborder.image" -}}
{{- $name := index .root.Values.image .component -}}
{{- $tag := .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- if .root.Values.image.registry -}}{{ printf "%s/%s:%s" .root.Values.image.registry $name $tag }}{{- else -}}{{ printf "%s:%s" $name $tag }}{{- end -}}
{{- end -}}

{{- define "xborder.connectionName" -}}
{{- .Values.temporal.existingConnection | default (printf "%s-temporal" .Release.Name) -}}
{{- end -}}

{{/* The Temporal connection of the ingress and codec-independent clients (the controller injects the worker's). */}}
{{- define "xborder.temporalEnv" -}}
- name: TEMPORAL_ADDRESS
  value: {{ .Values.temporal.address | quote }}
- name: TEMPORAL_NAMESPACE
  value: {{ .Values.temporal.namespace | quote }}
- name: XBORDER_TASK_QUEUE
  value: {{ .Values.temporal.taskQueue | quote }}
{{- end -}}

{{- define "xborder.codecKeysVolume" -}}
- name: codec-keys
  secret:
    secretName: {{ .Values.secrets.codecKeys.name }}
    items:
      - key: {{ .Values.secrets.codecKeys.key }}
        path: codec-keys.json
{{- end -}}

{{/* Temporal credentials of the pods the controller does not make (ingress): mTLS files or the API key. */}}
{{- define "xborder.temporalAuthEnv" -}}
{{- if .Values.temporal.mutualTLSSecretName }}
- name: TEMPORAL_TLS
  value: "true"
- name: TEMPORAL_TLS_CLIENT_CERT_PATH
  value: /etc/temporal/tls/tls.crt
- name: TEMPORAL_TLS_CLIENT_KEY_PATH
  value: /etc/temporal/tls/tls.key
{{- else if .Values.temporal.apiKeySecret.name }}
- name: TEMPORAL_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ .Values.temporal.apiKeySecret.name }}
      key: {{ .Values.temporal.apiKeySecret.key }}
{{- end }}
{{- end -}}

{{/* The codec's switches, the same in every process that decodes payloads for a workflow (docs/codec.md). */}}
{{- define "xborder.codecSwitches" -}}
- name: XBORDER_CODEC_PLAINTEXT
  value: {{ .Values.codec.plaintext | quote }}
- name: XBORDER_CODEC_UNBOUND
  value: {{ .Values.codec.unbound | quote }}
{{- if .Values.codec.unboundKeyIds }}
- name: XBORDER_CODEC_UNBOUND_KEY_IDS
  value: {{ .Values.codec.unboundKeyIds | quote }}
{{- end }}
{{- end -}}
